// orderflow status dashboard: plain JS, no build step, no CDN. Two ways to log in:
// - a bearer token entered in the form (a viewer, operator or approver token of the deployment's issuer;
//   locally `deploy/run-local.sh token --user vera --roles viewer`), kept in memory only (gone on reload) and
//   sent as the Authorization header of every call;
// - where the deployment configures it (GET /dashboard/login-methods), "Sign in" with the issuer's login
//   (OpenID Connect code flow, /dashboard/login): the server keeps the session in an HttpOnly cookie that
//   the browser sends with every same-origin call; GET /dashboard/session says who it is. Calls made with
//   the session carry the X-Orderflow-Dashboard header, without which the server refuses a state-changing
//   call authenticated by the cookie (cross-site request forgery).
'use strict';

const STATES = ['PENDING', 'ATTENTION', 'FAILED', 'COMPLETED', 'CANCELLED'];
const RECENT_ORDERS = 30;
const REFRESH_MS = 5000;
let credentials = null; // {user, header (null with the session cookie), roles, session}
let loginMethods = { token: true, codeFlow: false, login: null, logout: null };
let consoleConsumer = null;

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => {
    if (k === 'class') node.className = v;
    else if (k.startsWith('data-')) node.setAttribute(k, v);
    else node[k] = v;
  });
  children.flat().forEach((c) => node.append(c instanceof Node ? c : document.createTextNode(c == null ? '' : String(c))));
  return node;
}

function say(id, text, ok) {
  const p = $(id);
  p.textContent = text || '';
  p.classList.toggle('ok', !!ok);
}

async function problemText(response) {
  try {
    const p = await response.json();
    return `${response.status} ${p.title || ''}: ${p.detail || ''}`;
  } catch (e) {
    return `${response.status} ${response.statusText}`;
  }
}

async function api(path, options) {
  const headers = Object.assign({ Accept: 'application/json' }, (options && options.headers) || {});
  if (credentials && credentials.header) headers.Authorization = credentials.header;
  if (credentials && credentials.session) headers['X-Orderflow-Dashboard'] = '1';
  const response = await fetch(path, Object.assign({}, options, { headers, credentials: 'same-origin' }));
  if (response.status === 401 && credentials && credentials.session) {
    // The session ended (expired, or signed out in another tab): back to the login choices.
    setCredentials(null);
    $('login-status').textContent = 'session ended: sign in again';
  }
  return response;
}

// --- Recent orders: a colour matrix of per-consumer flags (GET /orders/status, one call per state) ---
async function loadOrders() {
  if (!credentials) { say('orders-message', 'log in to see the orders'); return; }
  try {
    const pages = await Promise.all(STATES.map(async (state) => {
      const r = await api(`/orders/status?state=${state}&page=0&size=${RECENT_ORDERS}`);
      if (!r.ok) throw new Error(await problemText(r));
      return (await r.json()).orders;
    }));
    const orders = pages.flat().sort((a, b) => (b.createdAt || '').localeCompare(a.createdAt || '')).slice(0, RECENT_ORDERS);
    const consumers = [...new Set(orders.flatMap((o) => Object.keys(o.consumers)))];
    $('orders-table').tHead.replaceChildren(el('tr', {}, el('th', {}, 'order'), el('th', {}, 'state'),
      el('th', {}, 'created'), consumers.map((c) => el('th', {}, c)), el('th', {}, 'failure'),
      el('th', {}, 'compensation')));
    $('orders-table').tBodies[0].replaceChildren(...orders.map((o) => el('tr', { 'data-order-id': o.orderId },
      el('td', {}, o.orderId),
      el('td', {}, el('span', { class: `cell state-${o.state}` }, o.state)),
      el('td', {}, o.createdAt),
      consumers.map((c) => el('td', { 'data-consumer': c, class: `cell state-${o.consumers[c] || 'PENDING'}`,
        title: `${c}: ${o.consumers[c] || 'PENDING'}` }, o.consumers[c] || '')),
      el('td', {}, o.failure ? `${o.failure.consumer} ${o.failure.class}: ${o.failure.reason}` : ''),
      el('td', { class: 'compensation' }, o.compensation
        ? Object.entries(o.compensation).map(([c, s]) => `${c} ${s}`).join(', ') : ''))));
    $('orders-updated').textContent = `(${orders.length}, ${new Date().toISOString()})`;
    say('orders-message', orders.length ? '' : 'no orders yet');
  } catch (e) {
    say('orders-message', `orders not available: ${e.message}`);
  }
}

// --- Lag per group over time (GET /lag; 503 until the first sample) ---
async function loadLag() {
  if (!credentials) { say('lag-message', 'log in to see the lag'); return; }
  let body;
  try {
    const r = await api('/lag');
    if (!r.ok) {
      $('lag-chart').replaceChildren();
      say('lag-message', r.status === 404 ? 'lag not available' : `lag not available (${r.status})`);
      return;
    }
    body = await r.json();
  } catch (e) {
    say('lag-message', `lag not available (${e.message})`);
    return;
  }
  say('lag-message', body.stale ? `stale: measured at ${body.measuredAt}` : '', !body.stale);
  $('lag-chart').replaceChildren(lagChart(body.groups || []));
}

function lagChart(groups) {
  const W = 640, H = 200, PAD = 32;
  const colours = ['#1565c0', '#c62828', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f'];
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('width', W); svg.setAttribute('height', H + 20 * groups.length);
  svg.setAttribute('id', 'lag-svg');
  const points = groups.flatMap((g) => (g.history || []).map((h) => ({ t: Date.parse(h.at), v: h.behind })));
  const t0 = Math.min(...points.map((p) => p.t)), t1 = Math.max(...points.map((p) => p.t));
  const vmax = Math.max(1, ...points.map((p) => p.v));
  const x = (t) => PAD + (t1 > t0 ? (t - t0) / (t1 - t0) : 1) * (W - 2 * PAD);
  const y = (v) => H - PAD + 8 - (v / vmax) * (H - PAD - 8);
  const add = (name, attrs, text) => {
    const n = document.createElementNS(ns, name);
    Object.entries(attrs).forEach(([k, v]) => n.setAttribute(k, v));
    if (text != null) n.textContent = text;
    svg.append(n);
  };
  add('line', { x1: PAD, y1: y(0), x2: W - PAD, y2: y(0), stroke: '#999' });
  add('text', { x: 2, y: y(vmax) + 4 }, String(vmax));
  add('text', { x: 2, y: y(0) }, '0');
  groups.forEach((g, i) => {
    const colour = colours[i % colours.length];
    const pts = (g.history || []).map((h) => `${x(Date.parse(h.at)).toFixed(1)},${y(h.behind).toFixed(1)}`).join(' ');
    if (pts) add('polyline', { points: pts, fill: 'none', stroke: colour, 'stroke-width': 2, 'data-group': g.group });
    add('text', { x: PAD, y: H + 16 + 20 * i, fill: colour },
      `${g.group}: behind ${g.behind}, oldest ${g.oldestUnconsumedAgeSeconds}s, retry ${g.retryDepth}, DLQ ${g.dlqDepth}, online ${g.consumersOnline}`);
  });
  return svg;
}

// --- Admin parts ---
// The token's claims, for the name shown and the roles (its signature is the server's to check).
function claimsOf(token) {
  try {
    return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  } catch (e) {
    return {};
  }
}

function setLoggedIn(token) {
  const claims = token ? claimsOf(token) : {};
  setCredentials(token ? { user: claims.sub || 'unknown', header: 'Bearer ' + token, roles: claims.groups || [], session: false }
    : null);
}

// The issuer's session (GET /dashboard/session's answer): calls go with the cookie, no Authorization header.
function setSession(session) {
  setCredentials({ user: session.subject, header: null, roles: session.roles || [], session: true });
}

function setCredentials(next) {
  credentials = next;
  const session = !!(next && next.session);
  $('login-status').textContent = !next ? 'not logged in' : (session ? `signed in as ${next.user}` : `logged in as ${next.user}`);
  $('logout-button').hidden = !next || session;
  $('sign-out-button').hidden = !session;
  ['login-token', 'login-button'].forEach((id) => { $(id).hidden = !!next; });
  $('sign-in-link').hidden = !!next || !loginMethods.codeFlow;
  document.querySelectorAll('.admin').forEach((s) => s.classList.toggle('locked', !next));
  if (!next) {
    $('console').hidden = true;
    consoleConsumer = null;
    ['dlq-table', 'requests-table', 'orders-table'].forEach((id) => $(id).tBodies[0].replaceChildren());
    $('reconciliation-result').replaceChildren();
    $('lag-chart').replaceChildren();
  }
}

async function login(event) {
  event.preventDefault();
  const token = $('login-token').value.trim();
  const r = await fetch('/admin/dlq', { headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' } });
  if (!r.ok) {
    $('login-status').textContent = `login failed: ${await problemText(r)}`;
    return;
  }
  $('login-token').value = '';
  setLoggedIn(token);
  await Promise.all([refreshAdmin(), loadOrders(), loadLag()]);
}

async function refreshAdmin() {
  if (!credentials) return;
  await Promise.all([loadDlq(), loadRequests(), loadReconciliation(), consoleConsumer ? loadConsole() : null]);
}

async function loadDlq() {
  const r = await api('/admin/dlq');
  if (!r.ok) { say('dlq-message', await problemText(r)); return; }
  say('dlq-message', '');
  $('dlq-table').tBodies[0].replaceChildren(...(await r.json()).map((q) => el('tr', { 'data-consumer': q.consumer },
    el('td', {}, q.consumer), el('td', {}, q.group), el('td', { class: 'depth' }, q.depth),
    el('td', {}, q.approvalRequired ? 'second person' : 'none'),
    el('td', {}, el('a', { href: `#console/${q.consumer}`, 'data-dlq-consumer': q.consumer }, 'open console')))));
}

async function loadConsole() {
  $('console').hidden = false;
  $('console-consumer').textContent = consoleConsumer;
  const r = await api(`/admin/dlq/${encodeURIComponent(consoleConsumer)}/messages?max=50`);
  if (!r.ok) { say('console-message', await problemText(r)); return; }
  $('console-table').tBodies[0].replaceChildren(...(await r.json()).map((m) => el('tr', { 'data-dlq-message-id': m.dlqMessageId, 'data-message-key': m.messageKey || '' },
    el('td', {}, el('input', { type: 'checkbox', class: 'select', value: m.dlqMessageId })),
    el('td', {}, m.messageKey), el('td', {}, m.failureClass), el('td', {}, m.failureReason), el('td', {}, m.deadLetteredAt),
    el('td', {}, m.attempts), el('td', {}, m.alreadyConsumed == null ? 'unknown' : (m.alreadyConsumed ? 'yes, already consumed' : 'no')),
    el('td', { class: 'body' }, m.body))));
}

async function requestRedrive() {
  const ids = [...document.querySelectorAll('#console-table input.select:checked')].map((c) => c.value);
  if (!ids.length) { say('console-message', 'select at least one entry'); return; }
  const body = { dlqMessageIds: ids, comment: $('redrive-comment').value || null };
  if ($('redrive-body').value.trim()) body.correctedBody = $('redrive-body').value;
  const r = await api(`/admin/dlq/${encodeURIComponent(consoleConsumer)}/redrive-requests`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!r.ok) { say('console-message', await problemText(r)); return; }
  const created = await r.json();
  say('console-message', created.map((c) => `request ${c.id}: ${c.status}`).join(', '), true);
  $('redrive-body').value = '';
  await refreshAdmin();
}

// Gives up the order of one dead-lettered create: decided FAILED and compensated once a second person approves.
async function requestAbandon() {
  const ids = [...document.querySelectorAll('#console-table input.select:checked')].map((c) => c.value);
  if (ids.length !== 1) { say('console-message', 'select exactly one entry (the create of the order to abandon)'); return; }
  const reason = $('redrive-comment').value.trim();
  if (!reason) { say('console-message', 'say why in the comment: it becomes the order\'s failure reason'); return; }
  const r = await api(`/admin/dlq/${encodeURIComponent(consoleConsumer)}/abandon-requests`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ dlqMessageIds: ids, comment: reason }) });
  if (!r.ok) { say('console-message', await problemText(r)); return; }
  const created = await r.json();
  say('console-message', `abandon request ${created.id}: ${created.status}`, true);
  await refreshAdmin();
}

async function loadRequests() {
  const r = await api('/admin/redrive-requests?limit=50');
  if (!r.ok) { say('requests-message', await problemText(r)); return; }
  $('requests-table').tBodies[0].replaceChildren(...(await r.json()).map((q) => el('tr', { 'data-request-id': q.id },
    el('td', {}, q.id), el('td', { class: 'request-action' }, q.action), el('td', {}, q.consumer), el('td', {}, q.messageKey),
    el('td', { class: 'request-status' }, q.status), el('td', {}, q.requestedBy),
    el('td', {}, q.approvedBy || q.rejectedBy || ''), el('td', {}, q.comment || q.failure || ''),
    el('td', {}, q.status === 'PENDING_APPROVAL'
      ? [el('button', { type: 'button', class: 'approve', onclick: () => decide(q.id, 'approve') }, 'Approve'),
        el('button', { type: 'button', class: 'reject', onclick: () => decide(q.id, 'reject') }, 'Reject')]
      : ''))));
}

async function decide(id, action) {
  const r = await api(`/admin/redrive-requests/${id}/${action}`, { method: 'POST' });
  say('requests-message', r.ok ? `request ${id}: ${(await r.json()).status}` : await problemText(r), r.ok);
  await refreshAdmin();
}

async function loadReconciliation() {
  const target = $('reconciliation-result');
  const r = await api('/admin/reconciliation');
  if (r.status === 404) { target.replaceChildren(el('p', {}, 'no reconciliation result yet')); return; }
  if (!r.ok) { target.replaceChildren(el('p', { class: 'message' }, await problemText(r))); return; }
  const rec = await r.json();
  const listed = (rec.findings || []).length, omitted = rec.findingsOmitted || 0;
  target.replaceChildren(
    el('p', {}, `ran at ${rec.ranAt} over ${rec.from} .. ${rec.to}: ${rec.ordersChecked} orders checked, ${listed + omitted} findings`
      + (omitted ? ` (the first ${listed} listed)` : '')),
    el('p', {}, Object.entries(rec.counts || {}).map(([k, v]) => `${k}: ${v}`).join(', ')),
    el('table', { id: 'reconciliation-findings' }, el('tbody', {}, (rec.findings || []).map((f) =>
      el('tr', {}, el('td', {}, f.kind), el('td', {}, f.consumer), el('td', {}, f.orderId), el('td', {}, f.detail))))));
}

// Offers "Sign in" where the deployment has the code flow, and resumes its session if there is one.
async function resumeSession() {
  try {
    const r = await fetch('/dashboard/login-methods', { headers: { Accept: 'application/json' } });
    if (r.ok) loginMethods = await r.json();
  } catch (e) {
    // The token form still works.
  }
  const failed = new URLSearchParams(location.search);
  if (failed.get('error')) {
    $('login-status').textContent = `sign-in failed: ${failed.get('error_description') || failed.get('error')}`;
  }
  if (!loginMethods.codeFlow) return;
  if (loginMethods.login) $('sign-in-link').href = loginMethods.login;
  if (!credentials) $('sign-in-link').hidden = false;
  const r = await fetch('/dashboard/session', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!r.ok || credentials) return; // no session (401), or a token was entered meanwhile
  setSession(await r.json());
  await Promise.all([refreshAdmin(), loadOrders(), loadLag()]);
  route();
}

function signOut() {
  setCredentials(null);
  location.assign(loginMethods.logout || '/dashboard/logout');
}

function route() {
  const m = location.hash.match(/^#console\/(.+)$/);
  consoleConsumer = m ? decodeURIComponent(m[1]) : null;
  if (!consoleConsumer) $('console').hidden = true;
  if (credentials && consoleConsumer) loadConsole();
}

$('login-form').addEventListener('submit', login);
$('logout-button').addEventListener('click', () => setLoggedIn(null));
$('sign-out-button').addEventListener('click', signOut);
$('request-redrive').addEventListener('click', requestRedrive);
$('request-abandon').addEventListener('click', requestAbandon);
window.addEventListener('hashchange', route);
setLoggedIn(null);
loadOrders();
loadLag();
route();
resumeSession();
setInterval(() => { if (credentials) { loadOrders(); loadLag(); } }, REFRESH_MS);
