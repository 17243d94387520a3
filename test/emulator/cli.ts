/**
 * Run the Zebra emulator by hand:
 *
 *   npm run emulator -- --port 9100 --dpi 203 [--host 127.0.0.1] [--out DIR] [--serial /dev/pts/7 --baud 9600]
 *
 * Then print to tcp://127.0.0.1:9100 (or the serial line). Every format received is reported (and saved as
 * DIR/job-0001.zpl ...). Type commands on standard input to flip faults while it runs:
 *
 *   paper-out on|off   head-open on|off   ribbon-out on|off   pause   resume
 *   silent on|off      silent-faulted on|off   drop N [every]   slow MS   stall on|off
 *   clear   status   jobs   quit
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { NO_FAULTS, ZebraPrinterModel, type EmulatorFaults } from './zebra-core';
import { startZebraEmulator } from './zebra-emulator';

const USAGE = `Usage: npm run emulator -- [--port 9100] [--host 127.0.0.1] [--dpi 152|203|300|600] [--model NAME]
                            [--out DIR] [--serial /dev/pts/N --baud 9600]

A Zebra printer on TCP (or a serial line) that answers ~HS, ~HI and SGD and reports every format received
(saved as DIR/job-0001.zpl ... with --out). Type on standard input to flip faults while it runs:

  paper-out on|off   head-open on|off   ribbon-out on|off   pause   resume
  silent on|off      silent-faulted on|off   drop N [every]   slow MS   stall on|off
  clear   status   jobs   quit
`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      port: { type: 'string', default: '9100' },
      host: { type: 'string', default: '127.0.0.1' },
      dpi: { type: 'string', default: '203' },
      model: { type: 'string' },
      out: { type: 'string' },
      serial: { type: 'string' },
      baud: { type: 'string', default: '9600' },
    },
  });
} catch (e) {
  // An unknown or incomplete option: one line and the usage, not a stack trace.
  console.error(`emulator: ${(e as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const dpi = Number(values.dpi);
if (![152, 203, 300, 600].includes(dpi)) {
  console.error(`emulator: --dpi must be 152, 203, 300 or 600, got ${values.dpi}`);
  process.exit(2);
}
const outDir = values.out ? resolve(values.out) : undefined;
if (outDir) mkdirSync(outDir, { recursive: true });

let printer: ZebraPrinterModel;
let closeAll: () => Promise<void>;
if (values.serial) {
  const { serveOnSerialPort } = await import('./serial');
  printer = new ZebraPrinterModel({ dpi, model: values.model });
  const link = await serveOnSerialPort(printer, values.serial, Number(values.baud));
  closeAll = () => link.close();
  console.log(
    `Zebra emulator (${printer.model}, ${dpi} dpi) on serial ${values.serial} at ${values.baud} baud`,
  );
} else {
  const emulator = await startZebraEmulator({
    dpi,
    model: values.model,
    port: Number(values.port),
    host: values.host,
  });
  printer = emulator.printer;
  closeAll = () => emulator.close();
  console.log(
    `Zebra emulator (${printer.model}, ${dpi} dpi) listening on tcp://${values.host}:${emulator.port}`,
  );
}

let count = 0;
printer.onJob((job) => {
  count++;
  const where = outDir ? join(outDir, `job-${String(count).padStart(4, '0')}.zpl`) : undefined;
  if (where) writeFileSync(where, job.bytes);
  console.log(`job ${count}: ${job.bytes.length} bytes, ${job.state}${where ? ` -> ${where}` : ''}`);
});

const onOff = (word: string | undefined): boolean => word !== 'off';
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const [command, arg, extra] = line.trim().split(/\s+/);
  const set = (change: Partial<EmulatorFaults>): void => printer.setFault(change);
  switch (command) {
    case 'paper-out':
      set({ paperOut: onOff(arg) });
      break;
    case 'head-open':
      set({ headOpen: onOff(arg) });
      break;
    case 'ribbon-out':
      set({ ribbonOut: onOff(arg) });
      break;
    case 'pause':
      set({ paused: true });
      break;
    case 'resume':
      set({ paused: false });
      break;
    case 'silent':
      set({ silent: onOff(arg) });
      break;
    case 'silent-faulted':
      set({ silentWhileFaulted: onOff(arg) });
      break;
    case 'drop':
      set({ dropAfterBytes: { bytes: Number(arg), every: extra === 'every' } });
      break;
    case 'slow':
      set({ readDelayMs: Number(arg) || 0 });
      break;
    case 'stall':
      set({ stalled: onOff(arg) });
      break;
    case 'clear':
      set({ ...NO_FAULTS });
      break;
    case 'status':
      console.log(JSON.stringify(printer.hostStatus()));
      break;
    case 'jobs':
      console.log(
        `${printer.jobs.length} received, ${printer.printed.length} printed, ${printer.held.length} held`,
      );
      break;
    case 'quit':
      stop();
      return;
    case undefined:
    case '':
      return;
    default:
      console.log(`unknown command "${command}"`);
      return;
  }
  if (command !== 'status' && command !== 'jobs') console.log(`faults: ${JSON.stringify(printer.faults)}`);
});
// Standard input may be closed from the start (run in the background): the emulator keeps serving until
// `quit`, Ctrl-C or SIGTERM.
function stop(): void {
  rl.close();
  void closeAll().then(() => process.exit(0));
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
