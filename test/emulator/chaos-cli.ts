/**
 * Run the chaos printer by hand (test/emulator/chaos.ts), with faults drawn from a seed or given as JSON:
 *
 *   npx tsx test/emulator/chaos-cli.ts --seed 7 [--count 5] [--port 9100] [--dpi 203] [--serial /dev/pts/N]
 *   npx tsx test/emulator/chaos-cli.ts --faults '[{"kind":"reset","connection":2,"byte":1500}]'
 *
 * Prints the faults scheduled, each fault as it fires and each format received; Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import {
  CHAOS_FAULT_KINDS,
  ChaosPrinter,
  randomFaults,
  serveChaosOnSerialPort,
  startChaosPrinter,
  type ChaosFault,
} from './chaos';

const USAGE = `Usage: npx tsx test/emulator/chaos-cli.ts (--seed N [--count 5] | --faults JSON)
                                         [--port 9100] [--host 127.0.0.1] [--dpi 203] [--serial /dev/pts/N]

Fault kinds: ${CHAOS_FAULT_KINDS.join(', ')}
`;

function fail(message: string): never {
  console.error(`chaos: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      seed: { type: 'string' },
      count: { type: 'string', default: '5' },
      faults: { type: 'string' },
      port: { type: 'string', default: '9100' },
      host: { type: 'string', default: '127.0.0.1' },
      dpi: { type: 'string', default: '203' },
      serial: { type: 'string' },
    },
  }));
} catch (e) {
  fail((e as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
let faults: ChaosFault[];
if (values.faults !== undefined) {
  try {
    faults = JSON.parse(values.faults) as ChaosFault[];
  } catch (e) {
    fail(`--faults: ${(e as Error).message}`);
  }
} else if (values.seed !== undefined) {
  faults = randomFaults(Number(values.seed), { count: Number(values.count) });
} else {
  fail('give --seed N or --faults JSON');
}
const dpi = Number(values.dpi);
console.log(`faults scheduled: ${JSON.stringify(faults)}`);

let printer: ChaosPrinter;
let close: () => Promise<void>;
if (values.serial) {
  printer = new ChaosPrinter({ dpi, faults });
  const link = await serveChaosOnSerialPort(printer, values.serial);
  close = () => link.close();
  console.log(`chaos printer (${dpi} dpi) on serial ${values.serial}`);
} else {
  const emulator = await startChaosPrinter({ dpi, faults, port: Number(values.port), host: values.host });
  printer = emulator.printer;
  close = () => emulator.close();
  console.log(`chaos printer (${dpi} dpi) listening on ${emulator.uri}`);
}
let fired = 0;
const timer = setInterval(() => {
  for (; fired < printer.injected.length; fired++)
    console.log(`fault: ${JSON.stringify(printer.injected[fired])}`);
}, 100);
printer.onJob((job) => console.log(`format ${printer.jobs.length}: ${job.bytes.length} bytes, ${job.state}`));
const stop = (): void => {
  clearInterval(timer);
  void close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
