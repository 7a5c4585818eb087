package dev.talus.compaction;

import dev.talus.io.StorageFs;
import dev.talus.testfs.StorageFsContract;

/** The compaction tests' failing file layer keeps the contract while no failure is armed. */
class FailingFsContractTest extends StorageFsContract {
  @Override
  protected StorageFs newFs() {
    return new FailingFs();
  }
}
