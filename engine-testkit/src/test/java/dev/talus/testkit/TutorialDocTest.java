package dev.talus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/testing-data-models.md quotes DataModelTutorialTest verbatim; this keeps them in step. */
class TutorialDocTest {
  @Test
  void everyTaggedRegionIsQuotedVerbatim() throws Exception {
    String test =
        Files.readString(Path.of("src/test/java/dev/talus/testkit/DataModelTutorialTest.java"));
    String doc = Files.readString(Path.of("../docs/testing-data-models.md"));
    Matcher m =
        Pattern.compile("// tag::(\\w+)\\[\\]\\n(.*?)\\n\\s*// end::\\1\\[\\]", Pattern.DOTALL)
            .matcher(test);
    int regions = 0;
    while (m.find()) {
      regions++;
      String body = m.group(2).stripTrailing().replaceAll("(?m)^  ", "");
      if (!m.group(1).equals("extension")) {
        assertThat(doc).as("region %s of DataModelTutorialTest", m.group(1)).contains(body);
      }
    }
    assertThat(regions).isEqualTo(5);
    assertThat(doc).contains("DataModelTutorialTest");
  }
}
