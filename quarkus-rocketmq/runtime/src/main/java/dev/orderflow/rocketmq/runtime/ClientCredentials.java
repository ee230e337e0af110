package dev.orderflow.rocketmq.runtime;

import java.util.Optional;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.RemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRemotingAbstract;

/**
 * The access key and secret key a client signs every request with, for a broker with access
 * control on ({@code access-key} and {@code secret-key}), or none. RocketMQ's own
 * {@link AclClientRPCHook} does the signing.
 *
 * <p>A client instance (one per client id, i.e. per instance name in a process) signs with the
 * hook of the client that created it, whatever hook later clients of the same name bring: clients
 * with other credentials must not share one. The extension's default instance names are therefore
 * per name server <em>and</em> credentials, and {@link #checkUsedBy} refuses a client that an
 * explicit {@code instance-name} put into an instance signing with other credentials.
 *
 * @param accessKey null for none
 * @param secretKey null for none
 */
record ClientCredentials(String accessKey, String secretKey) {

    static final ClientCredentials NONE = new ClientCredentials(null, null);

    /**
     * The credentials of {@code channel}'s configuration: both keys or neither.
     *
     * @throws IllegalArgumentException when only one of them is set
     */
    static ClientCredentials of(Optional<String> accessKey, Optional<String> secretKey, String channel) {
        Optional<String> ak = accessKey.filter(k -> !k.isBlank());
        Optional<String> sk = secretKey.filter(k -> !k.isBlank());
        if (ak.isPresent() != sk.isPresent()) {
            throw new IllegalArgumentException(channel + ": set both access-key and secret-key, or neither ("
                    + (ak.isPresent() ? "secret-key" : "access-key") + " is missing)");
        }
        return ak.isEmpty() ? NONE : new ClientCredentials(ak.get(), sk.get());
    }

    boolean present() {
        return accessKey != null;
    }

    /** The hook to construct a RocketMQ client with; null (RocketMQ's "no hook") without credentials. */
    RPCHook rpcHook() {
        return present() ? new AclClientRPCHook(new SessionCredentials(accessKey, secretKey)) : null;
    }

    /**
     * Checks that {@code instance}, the client instance a started client joined, signs with these
     * credentials.
     *
     * @throws IllegalStateException when it signs with others (or none, or some where these are none)
     */
    void checkUsedBy(MQClientInstance instance, String client) {
        ClientCredentials used = NONE;
        RemotingClient remoting = instance.getMQClientAPIImpl().getRemotingClient();
        if (remoting instanceof NettyRemotingAbstract netty) {
            for (RPCHook hook : netty.getRPCHook()) {
                if (hook instanceof AclClientRPCHook acl) {
                    SessionCredentials signing = acl.getSessionCredentials();
                    used = new ClientCredentials(signing.getAccessKey(), signing.getSecretKey());
                }
            }
        }
        if (!equals(used)) {
            throw new IllegalStateException(client + ": its client instance " + instance.getClientId()
                    + " signs as " + used.describe() + ", not as " + describe()
                    + "; clients with other credentials need another instance-name");
        }
    }

    /** The access key, or "nobody"; never the secret key. */
    String describe() {
        return present() ? "access key " + accessKey : "nobody (no credentials)";
    }

    /** Without the secret key. */
    @Override
    public String toString() {
        return "ClientCredentials[" + describe() + "]";
    }
}
