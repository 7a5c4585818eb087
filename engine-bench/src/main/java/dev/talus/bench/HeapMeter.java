package dev.talus.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Heap figures around a workload: the live set after a full collection, and the sum of the heap
 * pools' peaks (which counts garbage too, so it is only an upper bound). Not thread-safe.
 */
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

  /**
   * The heap in use right after a full collection ({@code System.gc()}, twice so objects freed by
   * the first collection's reference processing go too): what is reachable now.
   */
  static long liveBytes() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
