package dev.talus.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/testing-data-models.md quotes OrderDao and OrderDaoTest verbatim; this keeps them in step.
 */
class DriverTutorialDocTest {
  @Test
  void everyTaggedRegionIsQuotedVerbatim() throws Exception {
    String doc = Files.readString(Path.of("../docs/testing-data-models.md"));
    int regions = 0;
    for (String file : new String[] {"OrderDao.java", "OrderDaoTest.java"}) {
      String source = Files.readString(Path.of("src/test/java/dev/talus/testkit/server", file));
      Matcher m =
          Pattern.compile("// tag::(\\w+)\\[\\]\\n(.*?)\\n\\s*// end::\\1\\[\\]", Pattern.DOTALL)
              .matcher(source);
      while (m.find()) {
        regions++;
        String body = m.group(2).stripTrailing();
        if (file.equals("OrderDaoTest.java")) {
          body = body.replaceAll("(?m)^  ", "");
        }
        assertThat(doc).as("region %s of %s", m.group(1), file).contains(body);
      }
    }
    assertThat(regions).isEqualTo(4);
  }
}
