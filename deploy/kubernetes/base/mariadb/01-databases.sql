-- One database per service (each service owns its schema; Flyway migrates it at start).
-- Used by deploy/compose and deploy/kubernetes alike. Runs once, on the first start of an empty
-- data directory, as root, after the image's entrypoint has created the user named by
-- MARIADB_USER: that user must be 'orderflow' (both deployments set it).
CREATE DATABASE IF NOT EXISTS orderflow_order CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS orderflow_inventory CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS orderflow_sms CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS orderflow_points CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS orderflow_status CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

GRANT ALL PRIVILEGES ON orderflow_order.* TO 'orderflow'@'%';
GRANT ALL PRIVILEGES ON orderflow_inventory.* TO 'orderflow'@'%';
GRANT ALL PRIVILEGES ON orderflow_sms.* TO 'orderflow'@'%';
GRANT ALL PRIVILEGES ON orderflow_points.* TO 'orderflow'@'%';
GRANT ALL PRIVILEGES ON orderflow_status.* TO 'orderflow'@'%';
