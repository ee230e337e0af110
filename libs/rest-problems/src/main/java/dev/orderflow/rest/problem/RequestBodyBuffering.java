package dev.orderflow.rest.problem;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Reads every request body on the event loop, without holding a thread, before the resource gets
 * a worker thread. Without it a blocking resource reads its body from a worker with blocking IO,
 * and a client that sends half a body and stalls holds that worker until
 * {@code quarkus.http.read-timeout}: a few hundred such connections take every worker and the
 * API stops answering (the slow-client fuzz tests, e.g. {@code StockApiFuzzTest}, check this).
 * Quarkus REST uses the buffered body when there is one. Bodies over
 * {@code quarkus.http.limits.max-body-size} are still refused with a plain 413.
 *
 * <p>HTTP/1.x only. On an HTTP/2 stream (h2c, which Java's {@code HttpClient} asks for by default)
 * Quarkus REST pauses the request after the buffering ended it, and Vert.x answers that with
 * "Request has already been read" → 500 (the fault suite's stock seeding sends such requests).
 * HTTP/2 streams go to Quarkus REST untouched; HTTP/2's own flow control bounds what one stalled
 * stream holds.
 */
@ApplicationScoped
public class RequestBodyBuffering {

    void install(@Observes Router router,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize) {
        BodyHandler bodyHandler = BodyHandler.create(false)
                .setBodyLimit(maxBodySize.asLongValue())
                .setMergeFormAttributes(false);
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            if (isHttp2(context)) {
                context.next();
            } else {
                bodyHandler.handle(context);
            }
        });
        // An empty body leaves no buffer, and Quarkus REST would then wait on the (ended) request stream.
        router.route().order(Integer.MIN_VALUE + 1).handler(context -> {
            if (!isHttp2(context) && context.body().buffer() == null) {
                context.setBody(Buffer.buffer());
            }
            context.next();
        });
    }

    private static boolean isHttp2(RoutingContext context) {
        return context.request().version() == HttpVersion.HTTP_2;
    }
}
