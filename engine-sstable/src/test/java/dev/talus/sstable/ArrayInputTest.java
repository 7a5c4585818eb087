package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.data.VarInts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link ArrayInput} decodes what {@code DataInputStream} decodes, varints included. */
class ArrayInputTest {
  @Test
  void decodesLikeADataInputStream() throws IOException {
    long seed = 77;
    System.out.println("ArrayInputTest seed " + seed);
    Random r = new Random(seed);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    for (int i = 0; i < 2_000; i++) {
      long v = r.nextLong() >>> r.nextInt(64);
      VarInts.writeUnsigned(out, v);
      VarInts.writeSigned(out, r.nextBoolean() ? -v : v);
      out.writeLong(r.nextLong());
      out.writeByte(r.nextInt(256));
    }
    byte[] b = bytes.toByteArray();
    ArrayInput fast = new ArrayInput(b, 0, b.length);
    DataInputStream slow = new DataInputStream(new ByteArrayInputStream(b));
    for (int i = 0; i < 2_000; i++) {
      assertThat(VarInts.readUnsigned(fast)).isEqualTo(VarInts.readUnsignedBytewise(slow));
      assertThat(VarInts.readSigned(fast)).isEqualTo(VarInts.readSigned(slow));
      assertThat(fast.readLong()).isEqualTo(slow.readLong());
      assertThat(fast.readUnsignedByte()).isEqualTo(slow.readUnsignedByte());
    }
    assertThat(fast.remaining()).isZero();
  }

  @Test
  void malformedAndTruncatedVarintsFailAsTheBytewiseDecodeDoes() {
    byte[] eleven = new byte[11];
    java.util.Arrays.fill(eleven, (byte) 0x80);
    assertThatThrownBy(() -> VarInts.readUnsigned(new ArrayInput(eleven, 0, eleven.length)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("more than 10 bytes");
    byte[] cut = {(byte) 0x80, (byte) 0x80};
    assertThatThrownBy(() -> VarInts.readUnsigned(new ArrayInput(cut, 0, cut.length)))
        .isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> new ArrayInput(new byte[4], 0, 4).readLong())
        .isInstanceOf(EOFException.class);
  }
}
