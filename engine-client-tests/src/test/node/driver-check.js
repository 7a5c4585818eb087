// Run by NodeDriverTest (mvn -Pnode): the Node.js cassandra-driver against a Talus server.
// Usage: node driver-check.js PORT. Prints one JSON line with what it saw; exits 1 on any error.
'use strict';
const cassandra = require('cassandra-driver');

async function main() {
  const port = parseInt(process.argv[2], 10);
  const client = new cassandra.Client({
    contactPoints: ['127.0.0.1:' + port],
    localDataCenter: 'datacenter1',
    keyspace: 'shop',
    socketOptions: { connectTimeout: 60000, readTimeout: 60000 },
  });
  await client.connect();
  const seen = {};

  const local = await client.execute('SELECT data_center FROM system.local');
  seen.dataCenter = local.first().data_center;

  // prepared statements: 250 rows in one partition
  const insert = 'INSERT INTO events (room, at, body) VALUES (?, ?, ?)';
  for (let i = 0; i < 250; i++) {
    await client.execute(insert, ['lobby', i, 'message ' + i], { prepare: true });
  }
  const one = await client.execute(
    'SELECT body FROM events WHERE room = ? AND at = ?', ['lobby', 42], { prepare: true });
  seen.body42 = one.first().body;

  // paging by hand: pageState from each page into the next request
  const select = 'SELECT at FROM events WHERE room = ?';
  let pageState;
  const ats = [];
  seen.pages = 0;
  do {
    const page = await client.execute(select, ['lobby'], { prepare: true, fetchSize: 40, pageState });
    seen.pages++;
    for (const row of page.rows) ats.push(row.at);
    pageState = page.pageState;
  } while (pageState);
  seen.rows = ats.length;
  seen.inOrder = ats.every((v, i) => v === i);

  // and the driver's own paging over the whole result
  let streamed = 0;
  await new Promise((resolve, reject) => {
    client.eachRow(select, ['lobby'], { prepare: true, fetchSize: 100, autoPage: true },
      () => { streamed++; }, (err) => (err ? reject(err) : resolve()));
  });
  seen.streamed = streamed;

  await client.shutdown();
  console.log(JSON.stringify(seen));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
