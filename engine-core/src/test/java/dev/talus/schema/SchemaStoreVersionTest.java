package dev.talus.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.KeyspaceSchema;
import dev.talus.TableSchema;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.NioStorageFs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * schema.db version 4 stores each table's dropped columns, version 5 also its secondary indexes,
 * version 6 each index's target and options, version 7 each table's chunk length; version 3 to 6
 * files are still read, and a newer version is refused with its number.
 */
class SchemaStoreVersionTest {
  @TempDir Path dir;
  private final NioStorageFs fs = new NioStorageFs();

  private static TableSchema table() {
    return TableSchema.builder("t")
        .keyspace("ks")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .build();
  }

  private static SchemaStore.Content content(Map<Integer, List<DroppedColumn>> dropped) {
    return new SchemaStore.Content(
        Map.of("ks", KeyspaceSchema.builder("ks").build()), Map.of(), Map.of(7, table()), dropped);
  }

  private byte[] file() throws IOException {
    return Files.readAllBytes(dir.resolve(SchemaStore.FILE));
  }

  private void write(byte[] body) throws IOException {
    ByteBuffer b = FileFormat.withCrcTrailer(body);
    byte[] all = new byte[b.remaining()];
    b.get(all);
    Files.write(dir.resolve(SchemaStore.FILE), all);
  }

  /**
   * The body (no CRC trailer) of {@code file} as version 6 wrote it: without the chunk length that
   * version 7 stores at the end of the table, {@code after} bytes before the body's end.
   */
  private static byte[] version6(byte[] file, int after) {
    int body = file.length - 4;
    int at = body - after - 4;
    byte[] out = new byte[body - 4];
    System.arraycopy(file, 0, out, 0, at);
    System.arraycopy(file, at + 4, out, at, body - at - 4);
    ByteBuffer.wrap(out).putInt(4, 6);
    return out;
  }

  /** Saves {@link #table()} with a chunk length of 64 KiB, and returns that schema. */
  private TableSchema saveWithChunkLength64() throws IOException {
    TableSchema t = table().toBuilder().chunkLengthKb(64).build();
    SchemaStore.save(
        fs,
        dir,
        new SchemaStore.Content(
            Map.of("ks", KeyspaceSchema.builder("ks").build()), Map.of(), Map.of(7, t), Map.of()));
    return t;
  }

  @Test
  void version7StoresEachTablesChunkLength() throws IOException {
    TableSchema t = saveWithChunkLength64();
    byte[] v7 = file();
    assertThat(ByteBuffer.wrap(v7).getInt(4)).isEqualTo(7);
    // the table ends with its chunk length, then the dropped-column and index counts (0, 0)
    assertThat(ByteBuffer.wrap(v7).getInt(v7.length - 4 - 12)).isEqualTo(64);
    assertThat(SchemaStore.load(fs, dir).tables().get(7)).isEqualTo(t);
  }

  @Test
  void aVersion6FileIsReadWithTheDefaultChunkLength() throws IOException {
    saveWithChunkLength64();
    write(version6(file(), 8));
    TableSchema back = SchemaStore.load(fs, dir).tables().get(7);
    assertThat(back.chunkLengthKb()).isEqualTo(TableSchema.DEFAULT_CHUNK_LENGTH_KB);
    assertThat(back).isEqualTo(table());
  }

  private static SchemaStore.Content withIndexes(List<IndexDef> indexes) {
    return new SchemaStore.Content(
        Map.of("ks", KeyspaceSchema.builder("ks").build()),
        Map.of(),
        Map.of(7, table()),
        Map.of(),
        Map.of(7, indexes));
  }

  @Test
  void version6StoresTheIndexesOfEachTableWithTargetAndOptions() throws IOException {
    List<IndexDef> indexes =
        List.of(
            IndexDef.sai("t_v", "v")
                .withTarget(IndexDef.Target.KEYS)
                .withOption("b", "2")
                .withOption("a", "1"));
    SchemaStore.save(fs, dir, withIndexes(indexes));
    byte[] v6 = file();
    assertThat(ByteBuffer.wrap(v6).getInt(4)).isEqualTo(7);
    // the last table ends with: dropped count 0, index count 1, "t_v", "v", "SAI", "KEYS",
    // option count 2, "a" "1", "b" "2" (sorted by name)
    int body = v6.length - 4;
    byte[] expected = {
      0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 't', '_', 'v', 0, 1, 'v', 0, 3, 'S', 'A', 'I', 0, 4, 'K', 'E',
      'Y', 'S', 0, 0, 0, 2, 0, 1, 'a', 0, 1, '1', 0, 1, 'b', 0, 1, '2'
    };
    assertThat(Arrays.copyOfRange(v6, body - expected.length, body)).isEqualTo(expected);
    SchemaStore.Content back = SchemaStore.load(fs, dir);
    assertThat(back.indexesOf(7)).isEqualTo(indexes);
    assertThat(back.indexesOf(7).get(0).options())
        .containsExactly(Map.entry("a", "1"), Map.entry("b", "2"));
    assertThat(back.tables().get(7)).isEqualTo(table());
  }

  @Test
  void aVersion5FileIsReadAsIndexesOfWholeValuesWithoutOptions() throws IOException {
    SchemaStore.save(fs, dir, withIndexes(List.of(IndexDef.sai("t_v", "v"))));
    // after the chunk length: dropped and index counts, "t_v", "v", "SAI", "SIMPLE", option count
    byte[] v6 = version6(file(), 4 + 4 + 5 + 3 + 5 + 8 + 4);
    // version 5 is version 6 without the target ("SIMPLE") and option count (0) of the last index
    int body = v6.length;
    byte[] tail = {0, 6, 'S', 'I', 'M', 'P', 'L', 'E', 0, 0, 0, 0};
    assertThat(Arrays.copyOfRange(v6, body - tail.length, body)).isEqualTo(tail);
    byte[] v5 = Arrays.copyOf(v6, body - tail.length);
    ByteBuffer.wrap(v5).putInt(4, 5);
    write(v5);
    SchemaStore.Content back = SchemaStore.load(fs, dir);
    assertThat(back.indexesOf(7)).containsExactly(IndexDef.sai("t_v", "v"));
    assertThat(back.indexesOf(7).get(0).target()).isEqualTo(IndexDef.Target.SIMPLE);
    assertThat(back.indexesOf(7).get(0).options()).isEmpty();
  }

  @Test
  void aNegativeIndexOptionCountIsDamage() throws IOException {
    SchemaStore.save(fs, dir, withIndexes(List.of(IndexDef.sai("t_v", "v"))));
    byte[] v6 = file();
    byte[] body = Arrays.copyOf(v6, v6.length - 4);
    ByteBuffer.wrap(body).putInt(body.length - 4, -1);
    write(body);
    assertThatThrownBy(() -> SchemaStore.load(fs, dir))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("negative index option count -1");
  }

  @Test
  void aVersion4FileIsReadWithoutIndexes() throws IOException {
    SchemaStore.save(fs, dir, content(Map.of()));
    byte[] v6 = version6(file(), 8);
    // version 4 is version 6 without the index count (0) after the last (only) table
    int body = v6.length;
    assertThat(ByteBuffer.wrap(v6).getInt(body - 4)).isZero();
    byte[] v4 = Arrays.copyOf(v6, body - 4);
    ByteBuffer.wrap(v4).putInt(4, 4);
    write(v4);
    SchemaStore.Content back = SchemaStore.load(fs, dir);
    assertThat(back.tables().get(7)).isEqualTo(table());
    assertThat(back.indexesOf(7)).isEmpty();
  }

  @Test
  void version4StoresTheDroppedColumnsOfEachTable() throws IOException {
    List<DroppedColumn> dropped =
        List.of(
            new DroppedColumn("old", DataType.set(DataType.TEXT), ColumnDef.Kind.REGULAR, 1, 123L),
            new DroppedColumn("st", DataType.INT, ColumnDef.Kind.STATIC, 2, 456L));
    SchemaStore.save(fs, dir, content(Map.of(7, dropped)));
    assertThat(ByteBuffer.wrap(file()).getInt(4)).isEqualTo(7);
    SchemaStore.Content back = SchemaStore.load(fs, dir);
    assertThat(back.droppedOf(7)).isEqualTo(dropped);
    assertThat(back.tables().get(7)).isEqualTo(table());
  }

  @Test
  void aVersion3FileIsReadWithoutDroppedColumns() throws IOException {
    SchemaStore.save(fs, dir, content(Map.of()));
    byte[] v4 = version6(file(), 8);
    // version 3 is version 6 without the dropped-column and index counts (0, 0) after the last
    // (only) table
    int body = v4.length;
    assertThat(ByteBuffer.wrap(v4).getLong(body - 8)).isZero();
    byte[] v3 = Arrays.copyOf(v4, body - 8);
    ByteBuffer.wrap(v3).putInt(4, 3);
    write(v3);
    SchemaStore.Content back = SchemaStore.load(fs, dir);
    assertThat(back.tables().get(7)).isEqualTo(table());
    assertThat(back.droppedOf(7)).isEmpty();
  }

  @Test
  void aNewerVersionIsRefusedWithItsNumber() throws IOException {
    SchemaStore.save(fs, dir, content(Map.of()));
    byte[] v = file();
    byte[] body = Arrays.copyOf(v, v.length - 4);
    ByteBuffer.wrap(body).putInt(4, 8);
    write(body);
    assertThatThrownBy(() -> SchemaStore.load(fs, dir))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("schema format version 8 is newer than this build reads (1 to 7)");
  }
}
