package dev.talus.testfs;

import java.io.IOException;

/** A file operation run under {@link FaultInjectingFs}'s power-loss gate. */
interface IoAction<T> {
  T run() throws IOException;
}
