package dev.orderflow.rocketmq.runtime.graal;

import com.alibaba.fastjson.parser.ParserConfig;
import com.alibaba.fastjson.serializer.SerializeConfig;

import io.quarkus.runtime.annotations.Recorder;

/**
 * Native image only. RocketMQ's remoting layer encodes route data, heartbeats and other bodies
 * with fastjson 1, which by default generates a serializer class per bean type with ASM and
 * defines it at run time. A native image cannot define classes, so fastjson is switched to its
 * reflective bean (de)serializers, for which the extension registers the wire classes.
 */
@Recorder
public class FastjsonNativeRecorder {

    public void useReflectiveSerializers() {
        SerializeConfig.getGlobalInstance().setAsmEnable(false);
        ParserConfig.getGlobalInstance().setAsmEnable(false);
    }
}
