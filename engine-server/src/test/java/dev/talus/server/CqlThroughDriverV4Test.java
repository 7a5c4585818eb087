package dev.talus.server;

/** Every statement of {@link CqlThroughDriverTest} again, with the driver held to protocol v4. */
class CqlThroughDriverV4Test extends CqlThroughDriverTest {
  @Override
  String protocolVersion() {
    return "V4";
  }
}
