/*
 * Starts DynamoDB Local (its ServerRunner, same command line) with Jetty bound to 127.0.0.1 only.
 * DynamoDB Local has no host option and listens on every interface; the local runner promises that
 * every emulator binds loopback (DESIGN.md section 7). Reflection keeps this independent of the jar's
 * internal types at compile time. Compiled on demand by bin/local/emulators.ts into .local/java/.
 */
import java.lang.reflect.Field;

public final class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    Class<?> telemetry = Class.forName("software.amazon.dynamodb.services.local.monitoring.Telemetry");
    telemetry
        .getMethod("configureTelemetry", String.class, String.class, boolean.class)
        .invoke(null, "local", "inMemorySharedDb", false);
    Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
    Object proxy = runner.getMethod("createServerFromCommandLineArgs", String[].class).invoke(null, (Object) args);
    Field field = proxy.getClass().getDeclaredField("server");
    field.setAccessible(true);
    Object server = field.get(proxy);
    Object[] connectors = (Object[]) server.getClass().getMethod("getConnectors").invoke(server);
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind");
    for (Object connector : connectors) {
      connector.getClass().getMethod("setHost", String.class).invoke(connector, "127.0.0.1");
    }
    proxy.getClass().getMethod("start").invoke(proxy);
    if (Boolean.getBoolean("loopback.exitWithParent")) exitWhenStdinCloses();
  }

  /**
   * The node process that started this one holds the other end of stdin; when it is gone (even killed
   * with SIGKILL, which runs none of its handlers) stdin reaches end-of-file and the JVM exits.
   */
  private static void exitWhenStdinCloses() {
    Thread watcher =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // nothing is ever written; only the end matters
                }
              } catch (java.io.IOException ignored) {
                // a broken pipe is an end too
              }
              Runtime.getRuntime().halt(0);
            },
            "exit-with-parent");
    watcher.setDaemon(true);
    watcher.start();
  }
}
