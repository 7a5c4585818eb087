package dev.talus.testfs;

import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.util.Random;

/** With no fault armed, the fault-injecting layer behaves as the contract says. */
class FaultInjectingFsContractTest extends StorageFsContract {
  @Override
  protected StorageFs newFs() {
    return new FaultInjectingFs(new NioStorageFs(), new Random(7));
  }
}
