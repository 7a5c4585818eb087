package dev.talus.testfs;

import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;

/** The production file layer keeps the {@link StorageFs} contract. */
class NioStorageFsContractTest extends StorageFsContract {
  @Override
  protected StorageFs newFs() {
    return new NioStorageFs();
  }
}
