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

// --- Words for what went wrong: never a bare status code, null or undefined ---
// A failed call's problem+json, in words for a person; `what` names the data ("the orders", "the lag").
async function failureText(response, what) {
  let problem = {};
  try { problem = await response.json(); } catch (e) { /* not a problem body */ }
  const detail = problem.detail ? ` (${problem.detail})` : '';
  switch (response.status) {
    case 401: return `log in again: status-service did not accept this login for ${what} (401 Unauthorized)`;
    case 403: return `this login may not read ${what} (403 Forbidden): it needs the role viewer, operator or approver`;
    case 503:
      if (problem.type && String(problem.type).includes('database')) return `status-service cannot reach its database${detail}`;
      return `${what} not available: status-service is busy or cannot reach what it needs${detail}`;
    default:
      return `${what} not available: status-service answered ${response.status} ${problem.title || response.statusText || ''}${detail}`.trim();
  }
}

// A fetch that did not get an answer at all (server down, network gone).
function unreachableText(what) {
  return `${what} not available: status-service cannot be reached`;
}

const orNone = (v, none) => (v == null || v === '' ? none : v);

// Seconds in words: "no message waiting" for null (nothing behind).
function ageText(seconds) {
  if (seconds == null) return 'no message waiting';
  if (seconds < 60) return `${Number(seconds).toFixed(seconds < 10 ? 1 : 0)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

// An x tick: the time of day in UTC, hh:mm:ss (the charts span minutes, never days).
const timeLabel = (ts) => new Date(ts * 1000).toISOString().slice(11, 19);

// A latency in words: milliseconds below a second, else seconds, minutes, hours or days.
function msText(ms) {
  if (ms == null) return 'no completions';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 86400000) return ageText(ms / 1000);
  return `${Math.floor(ms / 86400000)} d ${Math.round((ms % 86400000) / 3600000)} h`;
}

// A y tick: 950, 1.2K, 3.4M (a long number would run into the axis label).
const COMPACT = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

// --- Charts (uPlot from its webjar): time on x in UTC, a labelled y axis with its unit, a legend entry per series ---
const COLOURS = ['#1565c0', '#c62828', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#5d4037', '#ad1457', '#455a64', '#9e9d24'];
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]; // x ticks on whole seconds
const charts = {}; // id → uPlot instance (window.dashboardCharts for the tests)
window.dashboardCharts = charts;

function chartWidth(container) {
  return Math.max(280, Math.min(960, (container.parentElement || container).clientWidth - 8));
}

// Draws (or redraws with new data) the chart in container `id`: times in epoch seconds, series [{label, values}].
function drawChart(id, title, yLabel, times, series) {
  const container = $(id);
  const labels = series.map((s) => s.label).join('\n');
  const data = [times, ...series.map((s) => s.values)];
  const existing = charts[id];
  if (existing && existing.labels === labels) {
    existing.plot.setData(data);
    return existing.plot;
  }
  if (existing) existing.plot.destroy();
  container.replaceChildren();
  const plot = new uPlot({
    title,
    width: chartWidth(container),
    height: 220,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
    scales: { x: { time: true, range: (u, min, max) => (min === max ? [min - 30, max + 30] : [min, max]) }, y: { range: (u, min, max) => [0, Math.max(1, max == null ? 1 : max * 1.1)] } },
    axes: [
      { label: 'time (UTC)', labelSize: 18, space: 70, incrs: TIME_STEPS, values: (u, splits) => splits.map(timeLabel) },
      { label: yLabel, labelSize: 18, size: 56, values: (u, splits) => splits.map((v) => COMPACT.format(v)) },
    ],
    legend: { live: false },
    series: [{ label: 'time (UTC)' }, ...series.map((s, i) => ({
      label: s.label, stroke: COLOURS[i % COLOURS.length], width: 2, spanGaps: true,
      value: (u, v) => (v == null ? 'no sample' : s.format ? s.format(v) : String(v)),
    }))],
  }, data, container);
  container.querySelector('.uplot').setAttribute('data-chart', id);
  charts[id] = { plot, labels };
  return plot;
}

function dropChart(id) {
  if (charts[id]) { charts[id].plot.destroy(); delete charts[id]; }
  $(id).replaceChildren();
}

window.addEventListener('resize', () => Object.entries(charts).forEach(([id, c]) => {
  c.plot.setSize({ width: chartWidth($(id)), height: 220 });
}));

// --- Orders: filter by state, find by id, page through (GET /orders/status, GET /orders/{id}/status) ---
const ordersView = { state: '', page: 0, size: 20, search: '' };
const MAX_PAGE_SIZE = 100; // orderflow.status.listing.max-page-size

async function fetchJson(path, what) {
  let r;
  try {
    r = await api(path);
  } catch (e) {
    throw new Error(unreachableText(what));
  }
  if (!r.ok) {
    const error = new Error(await failureText(r, what));
    error.status = r.status;
    throw error;
  }
  return r.json();
}

// One page of the selection: {orders, total, more}. All states: the newest across the states' first pages.
async function ordersPage() {
  const { state, page, size } = ordersView;
  if (state) {
    const body = await fetchJson(`/orders/status?state=${state}&page=${page}&size=${size}`, 'the orders');
    return { orders: body.orders, total: body.total, more: (page + 1) * size < body.total };
  }
  const wanted = Math.min(MAX_PAGE_SIZE, (page + 1) * size);
  const bodies = await Promise.all(STATES.map((s) => fetchJson(`/orders/status?state=${s}&page=0&size=${wanted}`, 'the orders')));
  const total = bodies.reduce((n, b) => n + b.total, 0);
  const orders = bodies.flatMap((b) => b.orders)
    .sort((a, b) => (b.createdAt || '').localeCompare(a.createdAt || '')).slice(page * size, (page + 1) * size);
  return { orders, total, more: (page + 1) * size < Math.min(total, MAX_PAGE_SIZE) };
}

let ordersCall = 0; // answers to an older call (the view changed meanwhile) are dropped

async function loadOrders() {
  if (!credentials) { say('orders-message', 'log in to see the orders'); return; }
  const call = ++ordersCall;
  let orders, total, more, empty;
  try {
    if (ordersView.search) {
      try {
        orders = [await fetchJson(`/orders/${encodeURIComponent(ordersView.search)}/status`, 'the order')];
      } catch (e) {
        if (e.status !== 404 && e.status !== 400) throw e;
        orders = [];
      }
      total = orders.length; more = false;
      empty = `no order ${ordersView.search}: unknown, or its create event has not arrived yet`;
    } else {
      ({ orders, total, more } = await ordersPage());
      empty = ordersView.page > 0 ? 'no orders on this page' : (ordersView.state ? `no ${ordersView.state} orders` : 'no orders yet');
    }
  } catch (e) {
    if (call === ordersCall) say('orders-message', e.message);
    return;
  }
  if (call !== ordersCall || !credentials) return;
  renderOrders(orders);
  $('orders-prev').disabled = !!ordersView.search || ordersView.page === 0;
  $('orders-next').disabled = !!ordersView.search || !more;
  const first = orders.length ? ordersView.page * ordersView.size + 1 : 0;
  $('orders-page').textContent = ordersView.search ? 'search result'
    : `page ${ordersView.page + 1}: orders ${first}–${first + Math.max(0, orders.length - 1)} of ${total}`;
  $('orders-updated').textContent = `(updated ${new Date().toISOString().slice(11, 19)} UTC)`;
  say('orders-message', orders.length ? '' : empty);
}

function flagCell(consumer, state) {
  const s = state || 'PENDING';
  return el('td', { 'data-consumer': consumer, class: `flag state-${s}`, title: `${consumer}: ${s}` }, s);
}

function renderOrders(orders) {
  // The required consumers, in the API's order (every order has all of them).
  const consumers = [...new Set(orders.flatMap((o) => Object.keys(o.consumers || {})))];
  $('orders-table').tHead.replaceChildren(el('tr', {}, el('th', { 'data-column': 'order' }, 'order'),
    el('th', { 'data-column': 'state' }, 'state'), el('th', { 'data-column': 'created' }, 'created (UTC)'),
    consumers.map((c) => el('th', { 'data-column': `consumer-${c}` }, c)),
    el('th', { 'data-column': 'failure' }, 'failure'), el('th', { 'data-column': 'compensation' }, 'compensation')));
  $('orders-table').tBodies[0].replaceChildren(...orders.map((o) => el('tr', { 'data-order-id': o.orderId },
    el('td', { 'data-column': 'order' }, el('a', { href: `#order/${encodeURIComponent(o.orderId)}`, title: 'flags per event and when each was reached' }, o.orderId)),
    el('td', { 'data-column': 'state' }, el('span', { class: `cell state-${o.state}` }, o.state)),
    el('td', { 'data-column': 'created' }, orNone(o.createdAt, 'not created yet')),
    consumers.map((c) => flagCell(c, (o.consumers || {})[c])),
    el('td', { 'data-column': 'failure', class: 'failure' },
      o.failure ? `${o.failure.consumer} ${o.failure.class}: ${orNone(o.failure.reason, 'no reason given')}` : 'none'),
    el('td', { 'data-column': 'compensation', class: 'compensation' }, o.compensation
      ? Object.entries(o.compensation).map(([c, s]) => `${c} ${s}`).join(', ') : (o.state === 'FAILED' ? 'pending' : 'not needed')))));
}

function showOrders(changes) {
  Object.assign(ordersView, changes);
  $('orders-state').value = ordersView.state;
  loadOrders();
}

// --- One order: its milestones and each consumer's flag per event (GET /orders/{id}/status/history) ---
let detailOrderId = null;

const MILESTONES = [['createdAt', 'created'], ['completedAt', 'completed'], ['failedAt', 'decided FAILED'],
  ['cancelRequestedAt', 'cancel requested'], ['cancelledAt', 'cancelled']];

async function loadOrderDetail(focus) {
  const orderId = detailOrderId;
  if (!orderId) return;
  $('order-detail').hidden = false;
  $('order-detail-id').textContent = orderId;
  if (focus) {
    $('order-detail').scrollIntoView({ block: 'start' });
    $('order-detail-heading').focus({ preventScroll: true });
  }
  if (!credentials) { say('order-detail-message', 'log in to see the order'); return; }
  let history;
  try {
    history = await fetchJson(`/orders/${encodeURIComponent(orderId)}/status/history`, 'the order');
  } catch (e) {
    if (orderId !== detailOrderId) return;
    clearOrderDetail();
    say('order-detail-message', e.status === 404 || e.status === 400
      ? `no order ${orderId}: unknown, or its create event has not arrived yet` : e.message);
    return;
  }
  if (orderId !== detailOrderId || !credentials) return;
  renderOrderDetail(history);
  say('order-detail-message', '');
}

function clearOrderDetail() {
  ['order-detail-milestones', 'order-detail-flags'].forEach((id) => $(id).tBodies[0].replaceChildren());
  $('order-detail-flags').tHead.replaceChildren();
  $('order-detail-failure').textContent = '';
}

function flagText(flag) {
  if (flag.state === 'PENDING') return 'PENDING: nothing heard yet';
  const how = flag.source === 'dead-letter-queue' ? 'from the dead-letter queue' : 'reported';
  const why = flag.reason ? `: ${flag.class ? flag.class + ' ' : ''}${flag.reason}` : '';
  return `${flag.state} at ${flag.at} (${how})${why}`;
}

function renderOrderDetail(h) {
  $('order-detail-milestones').tBodies[0].replaceChildren(...MILESTONES.map(([key, label]) =>
    el('tr', { 'data-milestone': key }, el('th', {}, label), el('td', {}, orNone(h[key], 'not reached')))));
  $('order-detail-failure').replaceChildren('State ', el('span', { class: `cell state-${h.state}` }, h.state),
    h.failure ? ` · failure: ${h.failure.consumer} ${h.failure.class}: ${orNone(h.failure.reason, 'no reason given')}` : '');
  const events = h.events || [];
  const consumers = events.length ? events[0].consumers.map((f) => f.consumer) : [];
  $('order-detail-flags').tHead.replaceChildren(el('tr', {}, el('th', { 'data-column': 'consumer' }, 'consumer'),
    events.map((e) => el('th', { 'data-column': `event-${e.event}` }, e.event))));
  $('order-detail-flags').tBodies[0].replaceChildren(...consumers.map((c, i) => el('tr', { 'data-consumer': c },
    el('th', { 'data-column': 'consumer' }, c),
    events.map((e) => el('td', { 'data-event': e.event, class: `flag state-${e.consumers[i].state}` }, flagText(e.consumers[i]))))));
}

// --- Lag per group over time (GET /lag; 503 until the first sample) ---
async function loadLag() {
  if (!credentials) { say('lag-message', 'log in to see the lag'); return null; }
  let body;
  try {
    const r = await api('/lag');
    if (!r.ok) {
      clearLag();
      say('lag-message', r.status === 503
        ? 'status-service cannot reach the broker: no lag measured yet (it asks again every few seconds)'
        : await failureText(r, 'the lag'));
      return null;
    }
    body = await r.json();
  } catch (e) {
    clearLag();
    say('lag-message', unreachableText('the lag'));
    return null;
  }
  const groups = body.groups || [];
  $('lag-updated').textContent = `(measured ${orNone(body.measuredAt, 'never')})`;
  say('lag-message', body.stale
    ? `status-service cannot reach the broker: these figures were measured at ${body.measuredAt}`
    : (groups.length ? '' : 'no consumer groups are measured (orderflow.lag.groups is empty)'), false);
  renderLag(groups);
  return body;
}

function clearLag() {
  dropChart('lag-chart');
  $('lag-table').tBodies[0].replaceChildren();
}

function renderLag(groups) {
  const times = [...new Set(groups.flatMap((g) => (g.history || []).map((h) => Math.round(Date.parse(h.at) / 1000))))]
    .sort((a, b) => a - b);
  const series = groups.map((g) => {
    const at = new Map((g.history || []).map((h) => [Math.round(Date.parse(h.at) / 1000), h.behind]));
    return { label: g.group, values: times.map((t) => (at.has(t) ? at.get(t) : null)), format: (v) => `${v} behind` };
  });
  if (groups.length) drawChart('lag-chart', 'Messages behind per consumer group', 'messages behind', times, series);
  else dropChart('lag-chart');
  $('lag-table').tBodies[0].replaceChildren(...groups.map((g) => el('tr', { 'data-group': g.group },
    el('td', {}, g.group), el('td', { class: 'number' }, orNone(g.behind, 'unknown')),
    el('td', {}, ageText(g.oldestUnconsumedAgeSeconds)), el('td', { class: 'number' }, orNone(g.retryDepth, 'unknown')),
    el('td', { class: 'number' }, orNone(g.dlqDepth, 'unknown')), el('td', { class: 'number' }, orNone(g.consumersOnline, 'unknown')))));
}

// --- Overview: orders per state, latency, and per group lag and DLQ depth; each figure links to its section ---
const samples = []; // {t (epoch s), completed, p50, p99}: this page's own samples of /status/summary
const MAX_SAMPLES = 360;

async function loadOverview(lagBody) {
  if (!credentials) { say('overview-message', 'log in to see the overview'); return; }
  let summary;
  try {
    summary = await fetchJson('/status/summary', 'the summary');
  } catch (e) {
    say('overview-message', e.message);
    return;
  }
  say('overview-message', '');
  const counts = summary.counts || {};
  $('overview-state-figures').replaceChildren(...STATES.map((s) => el('a', {
    class: 'figure', href: '#orders', 'data-overview-state': s, title: `show the ${s} orders`,
    onclick: () => showOrders({ state: s, page: 0, search: '' }),
  }, el('span', { class: 'figure-value' }, orNone(counts[s], 0)), el('span', { class: 'figure-label' }, el('span', { class: `cell state-${s}` }, s)))));
  $('overview-orders-extra').textContent = `${summary.awaitingCreate} awaiting their create event, `
    + `${summary.compensationsPending} failed orders still being compensated`;
  await loadWindows();
  const l = summary.latency || {};
  $('overview-latency-window').textContent = `(completions in the last ${windowText(l.window)})`;
  $('overview-latency-figures').replaceChildren(
    el('a', { class: 'figure', href: '#latency', 'data-overview-latency': 'p50' }, el('span', { class: 'figure-value' }, msText(l.p50Ms)), el('span', { class: 'figure-label' }, 'p50')),
    el('a', { class: 'figure', href: '#latency', 'data-overview-latency': 'p99' }, el('span', { class: 'figure-value' }, msText(l.p99Ms)), el('span', { class: 'figure-label' }, 'p99')),
    el('a', { class: 'figure', href: '#latency', 'data-overview-latency': 'samples' }, el('span', { class: 'figure-value' }, orNone(l.samples, 0)), el('span', { class: 'figure-label' }, 'completions')));
  const groups = lagBody ? lagBody.groups || [] : [];
  $('overview-groups-table').tBodies[0].replaceChildren(...(lagBody
    ? groups.map((g) => el('tr', { 'data-group': g.group },
      el('td', {}, el('a', { href: '#lag' }, g.group)),
      el('td', { class: 'number', 'data-figure': 'behind' }, el('a', { href: '#lag' }, orNone(g.behind, 'unknown'))),
      el('td', { 'data-figure': 'oldest' }, el('a', { href: '#lag' }, ageText(g.oldestUnconsumedAgeSeconds))),
      el('td', { class: 'number', 'data-figure': 'dlq' }, el('a', { href: '#dlq' }, orNone(g.dlqDepth, 'unknown')))))
    : [el('tr', {}, el('td', { colSpan: 4 }, 'no lag figures: see the lag section'))]));
  $('overview-updated').textContent = `(updated ${new Date().toISOString().slice(11, 19)} UTC, every ${REFRESH_MS / 1000} s)`;
  recordSample(summary);
}

// Orders created in the last 5 min and hour per state they are in now, and completions (GET /status/overview).
async function loadWindows() {
  const body = $('overview-windows-table').tBodies[0];
  let overview;
  try {
    overview = await fetchJson('/status/overview', 'the recent orders');
  } catch (e) {
    body.replaceChildren(el('tr', {}, el('td', { colSpan: 8 }, e.message)));
    return;
  }
  const states = ['COMPLETED', 'FAILED', 'CANCELLED', 'ATTENTION', 'PENDING'];
  body.replaceChildren(...(overview.windows || []).map((w) => el('tr', { 'data-window': w.window },
    el('td', {}, `the last ${windowText(w.window)}`), el('td', { class: 'number' }, orNone(w.created, 0)),
    states.map((s) => el('td', { class: 'number', 'data-state': s }, el('a', {
      href: '#orders', title: `show the ${s} orders`, onclick: () => showOrders({ state: s, page: 0, search: '' }),
    }, orNone((w.counts || {})[s], 0)))),
    el('td', { class: 'number', 'data-figure': 'completed' }, el('a', { href: '#latency' }, orNone(w.completed, 0))))));
}

function windowText(iso) {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(iso || '');
  if (!m) return orNone(iso, 'window');
  return [m[1] && `${m[1]} h`, m[2] && `${m[2]} min`, m[3] && `${m[3]} s`].filter(Boolean).join(' ');
}

// Completions per second (between two samples of the COMPLETED count) and p50/p99 over time, drawn from this page's samples.
function recordSample(summary) {
  const l = summary.latency || {};
  samples.push({ t: Date.now() / 1000, completed: (summary.counts || {}).COMPLETED || 0, p50: l.p50Ms, p99: l.p99Ms });
  if (samples.length > MAX_SAMPLES) samples.shift();
  const times = samples.map((s) => Math.round(s.t));
  const rate = samples.map((s, i) => (i === 0 ? null
    : Math.max(0, (s.completed - samples[i - 1].completed) / Math.max(1, s.t - samples[i - 1].t))));
  drawChart('throughput-chart', 'Orders completed per second', 'orders / s', times,
    [{ label: 'completed per second', values: rate, format: (v) => `${v.toFixed(2)} /s` }]);
  drawChart('latency-chart', `End-to-end latency of the completions in the last ${windowText(l.window)}`, 'latency (ms)', times,
    [{ label: 'p50', values: samples.map((s) => (s.p50 == null ? null : s.p50)), format: (v) => `${v} ms` },
      { label: 'p99', values: samples.map((s) => (s.p99 == null ? null : s.p99)), format: (v) => `${v} ms` }]);
  say('latency-message', samples.length < 2 ? 'completions per second need two samples: the next comes within a few seconds'
    : (l.samples ? '' : `no completions in the last ${windowText(l.window)}: no latency to draw`));
}

async function refreshData() {
  const lag = await loadLag();
  await Promise.all([loadOverview(lag), loadOrders(), loadOrderDetail(false)]);
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
    ['dlq-table', 'requests-table', 'orders-table', 'lag-table', 'overview-groups-table', 'overview-windows-table'].forEach((id) => $(id).tBodies[0].replaceChildren());
    $('orders-table').tHead.replaceChildren();
    ['overview-state-figures', 'overview-latency-figures', 'reconciliation-result'].forEach((id) => $(id).replaceChildren());
    ['overview-orders-extra', 'overview-updated', 'orders-page', 'orders-updated', 'lag-updated'].forEach((id) => { $(id).textContent = ''; });
    ['lag-chart', 'throughput-chart', 'latency-chart'].forEach(dropChart);
    samples.length = 0;
    say('overview-message', 'log in to see the overview');
    say('orders-message', 'log in to see the orders');
    say('lag-message', 'log in to see the lag');
    say('latency-message', 'log in to see completions and latency');
    clearOrderDetail();
    say('order-detail-message', 'log in to see the order');
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
  await Promise.all([refreshAdmin(), refreshData()]);
}

async function refreshAdmin() {
  if (!credentials) return;
  await Promise.all([loadDlq(), loadRequests(), loadReconciliation(), consoleConsumer ? loadConsole() : null]);
}

async function loadDlq() {
  let r;
  try { r = await api('/admin/dlq'); } catch (e) { say('dlq-message', unreachableText('the dead-letter queues')); return; }
  if (!r.ok) { say('dlq-message', await failureText(r, 'the dead-letter queues')); return; }
  const queues = await r.json();
  say('dlq-message', queues.length ? '' : 'no required consumers, so no dead-letter queues');
  $('dlq-table').tBodies[0].replaceChildren(...queues.map((q) => el('tr', { 'data-consumer': q.consumer },
    el('td', {}, q.consumer), el('td', {}, q.group), el('td', { class: 'depth' }, q.depth),
    el('td', {}, q.approvalRequired ? 'second person' : 'none'),
    el('td', {}, el('a', { href: `#console/${q.consumer}`, 'data-dlq-consumer': q.consumer }, 'open console')))));
}

async function loadConsole() {
  $('console').hidden = false;
  $('console-consumer').textContent = consoleConsumer;
  const r = await api(`/admin/dlq/${encodeURIComponent(consoleConsumer)}/messages?max=50`);
  if (!r.ok) { say('console-message', await failureText(r, 'this dead-letter queue')); return; }
  const entries = await r.json();
  // A second load (a refresh, or the sign-in finishing) keeps what the operator selected.
  const selected = new Set([...document.querySelectorAll('#console-table input.select:checked')].map((box) => box.value));
  const empty = `the dead-letter queue of ${consoleConsumer} is empty`;
  if (!entries.length && !$('console-message').textContent) say('console-message', empty);
  else if (entries.length && $('console-message').textContent === empty) say('console-message', '');
  $('console-table').tBodies[0].replaceChildren(...entries.map((m) => el('tr', { 'data-dlq-message-id': m.dlqMessageId, 'data-message-key': m.messageKey || '' },
    el('td', {}, el('input', { type: 'checkbox', class: 'select', value: m.dlqMessageId, checked: selected.has(m.dlqMessageId) })),
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
  if (!r.ok) { say('requests-message', await failureText(r, 'the requests')); return; }
  const requests = await r.json();
  const none = 'no re-drive or abandon requests yet';
  if (!requests.length && !$('requests-message').textContent) say('requests-message', none);
  else if (requests.length && $('requests-message').textContent === none) say('requests-message', '');
  $('requests-table').tBodies[0].replaceChildren(...requests.map((q) => el('tr', { 'data-request-id': q.id },
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
  if (!r.ok) { target.replaceChildren(el('p', { class: 'message' }, await failureText(r, 'the reconciliation'))); return; }
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
  await Promise.all([refreshAdmin(), refreshData()]);
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
  const order = location.hash.match(/^#order\/(.+)$/);
  detailOrderId = order ? decodeURIComponent(order[1]) : null;
  if (!detailOrderId) {
    $('order-detail').hidden = true;
    clearOrderDetail();
  } else {
    loadOrderDetail(true);
  }
}

$('login-form').addEventListener('submit', login);
$('logout-button').addEventListener('click', () => setLoggedIn(null));
$('sign-out-button').addEventListener('click', signOut);
$('request-redrive').addEventListener('click', requestRedrive);
$('request-abandon').addEventListener('click', requestAbandon);
window.addEventListener('hashchange', route);
$('orders-state').addEventListener('change', () => showOrders({ state: $('orders-state').value, page: 0, search: '' }));
$('orders-size').addEventListener('change', () => showOrders({ size: Number($('orders-size').value), page: 0 }));
$('orders-prev').addEventListener('click', () => showOrders({ page: Math.max(0, ordersView.page - 1) }));
$('orders-next').addEventListener('click', () => showOrders({ page: ordersView.page + 1 }));
$('orders-controls').addEventListener('submit', (event) => {
  event.preventDefault();
  showOrders({ search: $('orders-search').value.trim(), page: 0 });
});
$('orders-search-clear').addEventListener('click', () => { $('orders-search').value = ''; showOrders({ search: '', page: 0 }); });
setLoggedIn(null);
route();
resumeSession();
setInterval(() => { if (credentials) refreshData(); }, REFRESH_MS);
