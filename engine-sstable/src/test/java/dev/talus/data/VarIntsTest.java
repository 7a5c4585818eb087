package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VarIntsTest {

  private static DataInputStream in(byte[] b) {
    return new DataInputStream(new ByteArrayInputStream(b));
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L})
  void unsignedAndSignedRoundTrip(long seed) throws IOException {
    Random rnd = new Random(seed);
    long[] edges = {0, 1, 127, 128, -1, Long.MIN_VALUE, Long.MAX_VALUE, 16383, 16384};
    for (int i = 0; i < 5_000; i++) {
      long v = i < edges.length ? edges[i] : rnd.nextLong() >> rnd.nextInt(64);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      VarInts.writeUnsigned(out, v);
      assertThat(bytes.size()).as("seed=%d v=%d", seed, v).isEqualTo(VarInts.sizeOfUnsigned(v));
      VarInts.writeSigned(out, v);
      DataInputStream in = in(bytes.toByteArray());
      assertThat(VarInts.readUnsigned(in)).as("seed=%d", seed).isEqualTo(v);
      assertThat(VarInts.readSigned(in)).as("seed=%d", seed).isEqualTo(v);
      assertThat(in.available()).isZero();
    }
  }

  @Test
  void readLengthRejectsValuesAboveTheLimitAndNegativeOnes() throws IOException {
    assertThat(VarInts.readLength(in(new byte[] {10}), 10)).isEqualTo(10);
    assertThatThrownBy(() -> VarInts.readLength(in(new byte[] {11}), 10))
        .isInstanceOf(IOException.class);
    byte[] huge = new byte[10];
    Arrays.fill(huge, (byte) 0xFF);
    huge[9] = 0x01; // 2^64 - 1: negative as a long
    assertThatThrownBy(() -> VarInts.readLength(in(huge), Integer.MAX_VALUE))
        .isInstanceOf(IOException.class);
  }

  @Test
  void overlongVarintIsRejected() {
    byte[] b = new byte[11];
    Arrays.fill(b, (byte) 0x80);
    assertThatThrownBy(() -> VarInts.readUnsigned(in(b))).isInstanceOf(IOException.class);
  }
}
