package dev.talus.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** Peak heap use between {@link #reset()} and {@link #peakBytes()}. Not thread-safe. */
final class HeapMeter {
  private HeapMeter() {}

  /** Collects garbage (so one workload's garbage is not the next one's peak) and resets peaks. */
  static void reset() {
    System.gc();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        p.resetPeakUsage();
      }
    }
  }

  /** The sum of the heap pools' peak use since {@link #reset()}: an upper bound of peak heap. */
  static long peakBytes() {
    long total = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
        total += p.getPeakUsage().getUsed();
      }
    }
    return total;
  }
}
