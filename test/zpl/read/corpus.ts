/**
 * Labels written by the team from the ZPL II guide's command descriptions, in the shapes carrier labels take
 * (boxes and rules, ^A0 text, ^BC tracking numbers, ^BQ / ^BX / ^B7 2D codes, a ^GFA logo). Not copied from any
 * carrier or third party. Each names the bar code values a scanner must read from it.
 */
export interface CorpusLabel {
  name: string;
  zpl: string;
  /** Values our image must decode to (zbarimg and ZXing), sorted. */
  barcodes: string[];
  /** Values of bar codes the independent renderer does not draw (zebrash has no ^BU, UPC-A). */
  theirsLacks?: string[];
  /** Least share of black dots of each image within a dot of the other's (default 0.9). */
  minAgreement?: number;
}

/** A 64 × 32 dot logo: a black frame with a diagonal, as ^GFA hex with ACS compression. */
function logoAcs(): string {
  const rows: string[] = [];
  for (let y = 0; y < 32; y++) {
    const bytes = new Uint8Array(8);
    for (let x = 0; x < 64; x++) {
      const frame = y < 3 || y > 28 || x < 3 || x > 60;
      const diag = Math.abs(x - y * 2) < 3;
      if (frame || diag) bytes[x >> 3]! |= 0x80 >> (x & 7);
    }
    rows.push(Array.from(bytes, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(''));
  }
  // ACS: a row equal to the one before is ':'; runs of one hex digit as a count letter.
  const acs = rows.map((r, i) =>
    i > 0 && r === rows[i - 1]
      ? ':'
      : r.replace(/(.)\1{2,}/g, (m, c: string) => `${countLetters(m.length)}${c}`),
  );
  return `^GFA,256,256,8,${acs.join('')}`;
}

function countLetters(n: number): string {
  let out = '';
  let left = n;
  while (left >= 20) {
    const k = Math.min(20, Math.floor(left / 20));
    out += String.fromCharCode(0x66 + k);
    left -= k * 20;
  }
  if (left > 0) out += String.fromCharCode(0x46 + left);
  return out;
}

export const CORPUS: CorpusLabel[] = [
  {
    name: 'parcel-code128',
    zpl: [
      '^XA^PW812^LL1218^CI28',
      '^FO20,20^GB772,1178,4^FS',
      '^FO20,200^GB772,0,4^FS',
      '^FO40,40^A0N,40,40^FDFROM: ACME WAREHOUSE^FS',
      '^FO40,90^A0N,30,30^FD12 Industrial Road^FS',
      '^FO40,130^A0N,30,30^FDSpringfield 12345^FS',
      '^FO40,240^A0N,60,60^FDSHIP TO:^FS',
      '^FO40,320^A0N,45,40^FDJane Example^FS',
      '^FO40,380^A0N,45,40^FD221 Long Street^FS',
      '^FO60,520^BY3^BCN,200,Y,N,N^FD>;1234567890123456^FS',
      '^FO600,40',
      logoAcs(),
      '^FS^XZ',
    ].join('\n'),
    barcodes: ['1234567890123456'],
  },
  {
    name: 'qr-and-datamatrix',
    zpl: [
      '^XA^PW812^LL812',
      '^FO40,40^BQN,2,6^FDQA,https://example.com/track/ABC123^FS',
      '^FO450,60^BXN,8,200^FDLD-0001-XYZ^FS',
      '^FO40,400^GB732,6,6^FS',
      '^FO40,450^A0N,50,50^FDTRACK ABC123^FS',
      '^FT40,700^BY2,3,120^B3N,N,120,Y,N^FDCODE39^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['CODE39', 'LD-0001-XYZ', 'https://example.com/track/ABC123'],
  },
  {
    name: 'retail-and-rotated',
    zpl: [
      '^XA^PW812^LL812',
      '^FO60,60^BY3^BEN,120,Y,N^FD400638133393^FS',
      '^FO600,100^BY2^BCR,120,N,N,N,A^FDROT-90-ABC^FS',
      '^FO60,560^BY3^B2N,120,N,N,N^FD12345670^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['12345670', '4006381333931', 'ROT-90-ABC'],
  },
  {
    // zebrash draws no ^BU (it prints the data as text): only our bars are checked, the dots not compared.
    name: 'upc-a',
    zpl: '^XA^PW812^LL406^FO60,60^BY3^BUN,120,Y,N^FD03600029145^FS^XZ',
    barcodes: ['036000291452'],
    theirsLacks: ['036000291452'],
    minAgreement: 0,
  },
];
