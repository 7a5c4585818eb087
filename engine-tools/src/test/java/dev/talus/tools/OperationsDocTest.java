package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CompactionOptions;
import dev.talus.TableSchema;
import dev.talus.TalusOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The docs stay true of the code: every public option is in docs/operations.md, the minimal pom and
 * the testkit snippet name modules and versions that exist, the newcomer commands are the ones CI
 * runs, and no page points at a tracker its readers cannot see.
 */
class OperationsDocTest {
  private static final Path ROOT = Path.of("..");

  private static String read(String file) throws IOException {
    return Files.readString(ROOT.resolve(file));
  }

  /** The public builder methods of {@code builder}, minus {@code except}. */
  private static Set<String> options(Class<?> builder, String... except) {
    Set<String> out = new TreeSet<>();
    for (Method m : builder.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())) {
        out.add(m.getName());
      }
    }
    out.removeAll(Set.of(except));
    out.remove("build");
    return out;
  }

  @Test
  void everyPublicOptionIsDocumentedInOperations() throws IOException {
    String ops = read("docs/operations.md");
    List<String> missing = new ArrayList<>();
    for (String o : options(TalusOptions.Builder.class)) {
      if (!ops.contains("`" + o)) {
        missing.add("TalusOptions.Builder." + o);
      }
    }
    for (String o :
        options(TableSchema.Builder.class, "partitionKey", "clusteringColumn", "column")) {
      if (!ops.contains("`" + o)) {
        missing.add("TableSchema.Builder." + o);
      }
    }
    for (String o : options(CompactionOptions.Builder.class)) {
      if (!ops.contains("`" + o)) {
        missing.add("CompactionOptions.Builder." + o);
      }
    }
    assertThat(missing).as("options missing from docs/operations.md").isEmpty();
    assertThat(options(TalusOptions.Builder.class)).contains("diskFailurePolicy", "clock");
  }

  private static Document xml(String text) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static String child(Element e, String name) {
    NodeList l = e.getElementsByTagName(name);
    return l.getLength() == 0 ? null : l.item(0).getTextContent().trim();
  }

  /** The fenced ```xml blocks of a Markdown page. */
  private static List<String> xmlBlocks(String markdown) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("```xml\\n(.*?)\\n```", Pattern.DOTALL).matcher(markdown);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** The text of {@code <name>} inside the parent pom's {@code <properties>}. */
  private static String property(Document parent, String name) {
    return child((Element) parent.getElementsByTagName("properties").item(0), name);
  }

  @Test
  void readmesMinimalPomNamesModulesAndVersionsThatExist() throws Exception {
    Document parent = xml(read("pom.xml"));
    Document bom = xml(read("talus-bom/pom.xml"));
    String version = child(parent.getDocumentElement(), "version");
    assertThat(child(bom.getDocumentElement(), "version")).isEqualTo(version);
    Set<String> managed = new TreeSet<>();
    NodeList bomDeps = bom.getElementsByTagName("dependency");
    for (int i = 0; i < bomDeps.getLength(); i++) {
      managed.add(child((Element) bomDeps.item(i), "artifactId"));
    }
    NodeList modules = parent.getElementsByTagName("module");
    Set<String> moduleNames = new TreeSet<>();
    for (int i = 0; i < modules.getLength(); i++) {
      moduleNames.add(modules.item(i).getTextContent().trim());
    }
    assertThat(moduleNames).containsAll(managed).contains("talus-bom");

    String pom =
        xmlBlocks(read("README.md")).stream()
            .filter(b -> b.contains("<project"))
            .findFirst()
            .orElseThrow();
    Document app = xml(pom);
    NodeList deps = app.getElementsByTagName("dependency");
    boolean bomImported = false;
    for (int i = 0; i < deps.getLength(); i++) {
      Element d = (Element) deps.item(i);
      String g = child(d, "groupId");
      String a = child(d, "artifactId");
      if (a.equals("talus-bom")) {
        bomImported = true;
        assertThat(child(d, "version")).isEqualTo(version);
        assertThat(child(d, "scope")).isEqualTo("import");
      } else if (g.equals("dev.talus")) {
        assertThat(managed).as("README names dev.talus:" + a).contains(a);
        assertThat(child(d, "version")).as("version of " + a + " comes from the BOM").isNull();
      } else if (a.equals("junit-jupiter")) {
        assertThat(child(d, "version")).isEqualTo(property(parent, "junit.version"));
      } else if (a.equals("slf4j-simple")) {
        assertThat(child(d, "version")).isEqualTo(property(parent, "slf4j.version"));
      }
    }
    assertThat(bomImported).isTrue();
    assertThat(pom).contains("<artifactId>engine-testkit</artifactId>", "junit-jupiter");
    assertThat(surefireVersion(app)).isEqualTo(property(parent, "surefire.plugin.version"));
  }

  private static String surefireVersion(Document d) {
    NodeList plugins = d.getElementsByTagName("plugin");
    for (int i = 0; i < plugins.getLength(); i++) {
      Element p = (Element) plugins.item(i);
      if ("maven-surefire-plugin".equals(child(p, "artifactId"))) {
        return child(p, "version");
      }
    }
    return null;
  }

  @Test
  void theTestkitSnippetHasTheJUnitEngineAndASurefireThatRunsIt() throws Exception {
    Document parent = xml(read("pom.xml"));
    List<String> blocks = xmlBlocks(read("docs/testing-data-models.md"));
    String deps =
        blocks.stream().filter(b -> b.contains("engine-testkit")).findFirst().orElseThrow();
    Document d = xml("<dependencies>" + deps + "</dependencies>");
    NodeList l = d.getElementsByTagName("dependency");
    boolean jupiter = false;
    for (int i = 0; i < l.getLength(); i++) {
      Element e = (Element) l.item(i);
      if ("junit-jupiter".equals(child(e, "artifactId"))) {
        jupiter = true;
        assertThat(child(e, "version")).isEqualTo(property(parent, "junit.version"));
      }
    }
    assertThat(jupiter).isTrue();
    String surefire =
        blocks.stream().filter(b -> b.contains("maven-surefire-plugin")).findFirst().orElseThrow();
    assertThat(surefireVersion(xml(surefire)))
        .isEqualTo(property(parent, "surefire.plugin.version"));
  }

  @Test
  void theNewcomerCommandsAreInReadmeAndCiRunsTheTestCommandVerbatim() throws IOException {
    String readme = read("README.md");
    assertThat(readme)
        .contains(
            "mvn -q -B -DskipTests install -pl '!engine-bench' && java -jar"
                + " engine-tools/target/talus.jar demo")
        .contains("```\nmvn -B verify\n```");
    assertThat(read(".ci/run")).containsPattern("(?m)^mvn -B verify$");
  }

  @Test
  void noPageSpeaksOfAnIssueItsReadersCannotLookUp() throws IOException {
    Pattern issue =
        Pattern.compile("(?i)\\bthe issue\\b|\\bissue(s|'s)?\\s*#?\\d+|\\bthe brief\\b");
    List<String> found = new ArrayList<>();
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
    }
    for (Path p : pages) {
      List<String> lines = Files.readAllLines(p);
      for (int i = 0; i < lines.size(); i++) {
        if (issue.matcher(lines.get(i)).find()) {
          found.add(p.getFileName() + ":" + (i + 1) + ": " + lines.get(i).trim());
        }
      }
    }
    assertThat(found).isEmpty();
  }
}
