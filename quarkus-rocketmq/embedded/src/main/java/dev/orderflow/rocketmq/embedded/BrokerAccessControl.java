package dev.orderflow.rocketmq.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.auth.authentication.enums.UserType;
import org.apache.rocketmq.auth.authentication.manager.AuthenticationMetadataManager;
import org.apache.rocketmq.auth.authentication.model.User;
import org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider;
import org.apache.rocketmq.auth.authorization.enums.Decision;
import org.apache.rocketmq.auth.authorization.enums.PolicyType;
import org.apache.rocketmq.auth.authorization.manager.AuthorizationMetadataManager;
import org.apache.rocketmq.auth.authorization.model.Acl;
import org.apache.rocketmq.auth.authorization.model.Policy;
import org.apache.rocketmq.auth.authorization.model.PolicyEntry;
import org.apache.rocketmq.auth.authorization.model.Resource;
import org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider;
import org.apache.rocketmq.auth.config.AuthConfig;
import org.apache.rocketmq.broker.BrokerController;

/**
 * RocketMQ's access control (ACL 2.0, the only one RocketMQ 5.3.3 has: ACL 1.0, {@code aclEnable}
 * with {@code plain_acl.yml}, was removed in that release) for an in-process broker: authentication
 * of every request by its signature (the client's {@code AclClientRPCHook}) and authorization by the
 * signing user's grants. Users and their ACLs live in the broker's own metadata (RocksDB under
 * {@code store/config}), as on a stock broker started with {@code authenticationEnabled} and
 * {@code authorizationEnabled}; the name server checks nothing (routes are not secret).
 */
final class BrokerAccessControl {

    /**
     * RocketMQ keeps its authentication and authorization providers in static maps keyed by the
     * config name, and a broker's shutdown closes their stores: a second broker of the same name in
     * this JVM (a restart, another test) would be given the closed ones. Each start gets its own name.
     */
    private static final AtomicInteger STARTS = new AtomicInteger();

    private BrokerAccessControl() {
    }

    /** Authentication and authorization on, with users and ACLs stored under {@code storeDir/config}. */
    static AuthConfig authConfig(String clusterName, String brokerName, Path storeDir) {
        AuthConfig config = new AuthConfig();
        config.setConfigName(brokerName + "#" + ProcessHandle.current().pid() + "-" + STARTS.incrementAndGet());
        config.setClusterName(clusterName);
        config.setAuthConfigPath(storeDir.resolve("config").toString());
        config.setAuthenticationEnabled(true);
        config.setAuthenticationMetadataProvider(LocalAuthenticationMetadataProvider.class.getName());
        config.setAuthorizationEnabled(true);
        config.setAuthorizationMetadataProvider(LocalAuthorizationMetadataProvider.class.getName());
        return config;
    }

    /**
     * Makes {@code users}, with their grants, the broker's only users: users a kept store holds
     * from an earlier start are deleted first. Call before the broker starts serving clients.
     */
    static void install(BrokerController broker, List<BrokerUser> users) {
        AuthenticationMetadataManager authentication = broker.getAuthenticationMetadataManager();
        AuthorizationMetadataManager authorization = broker.getAuthorizationMetadataManager();
        for (User stored : authentication.listUser(null).join()) {
            authentication.deleteUser(stored.getUsername()).join();
        }
        for (BrokerUser user : users) {
            authentication.createUser(User.of(user.accessKey(), user.secretKey(),
                    user.isSuperUser() ? UserType.SUPER : UserType.NORMAL)).join();
            List<PolicyEntry> entries = new ArrayList<>();
            for (BrokerUser.Grant grant : user.grants()) {
                entries.add(PolicyEntry.of(Resource.of(grant.resourceKey()), grant.actions(), null, Decision.ALLOW));
            }
            if (!entries.isEmpty()) {
                authorization.createAcl(Acl.of(User.of(user.accessKey()), Policy.of(PolicyType.CUSTOM, entries))).join();
            }
        }
    }
}
