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
  {
    name: 'reverse-banner-and-block',
    zpl: [
      '^XA^PW812^LL609^LH10,10',
      '^FO0,0^GB792,90,90^FS',
      '^FR^FO30,20^A0N,60,60^FDPRIORITY^FS',
      '^FO30,120^FB700,3,4,L,0^A0N,36,30^FDDeliver to the loading dock at the rear of the building between 8 and 4.^FS',
      '^FO30,280^GD100,100,6,B,R^FS',
      '^FO160,280^GC100,8,B^FS',
      '^FO540,280^GB200,100,4,B,3^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
  },
  {
    // zebrash draws neither ^GE nor ^BA: only our image is checked, the dots not compared.
    name: 'code93-and-ellipse',
    zpl: '^XA^PW812^LL406^FO30,20^GE200,100,6,B^FS^FO30,180^BY2^BAN,100,Y,N,N^FDLD93^FS^XZ',
    barcodes: ['LD93'],
    theirsLacks: ['LD93'],
    minAgreement: 0,
  },
  {
    name: 'stored-format-and-graphic',
    zpl: [
      '~DGR:SQUARE.GRF,200,5,' + 'FFFFFFFFFF'.repeat(40),
      '^XA^DFR:CARTON.ZPL^PW812^LL406',
      '^FO20,20^XGR:SQUARE.GRF,2,2^FS',
      '^FO140,20^CF0,40^FN1^FS',
      '^FO140,80^A0N,30,30^FN2^FS',
      '^FO20,160^BY3^BCN,120,Y,N,N^FN3^FS',
      '^XZ',
      '^XA^XFR:CARTON.ZPL^FN1^FDCarton 7 of 12^FS^FN2^FDDock B^FS^FN3^FDCTN-0007^FS^XZ',
    ].join('\n'),
    barcodes: ['CTN-0007'],
  },
  {
    name: 'pdf417',
    zpl: '^XA^PW812^LL406^FO40,40^BY2^B7N,6,3,6^FDLabelDesk PDF417 test 0123456789^FS^XZ',
    barcodes: ['LabelDesk PDF417 test 0123456789'],
  },
  {
    // zebrash draws neither ^BK nor ^B8 (it prints their data as text): only our image is checked.
    name: 'codabar-ean8',
    zpl: '^XA^PW812^LL609^FO40,40^BY3^BKN,N,100,Y,N,A,B^FD123456^FS^FO40,300^BY3^B8N,100,Y,N^FD1234567^FS^XZ',
    barcodes: ['12345670', 'A123456B'],
    theirsLacks: ['12345670', 'A123456B'],
    minAgreement: 0,
  },
  {
    // Text only: the faces differ (docs/zpl.md "Fonts"), the placement of every rotation agrees.
    name: 'rotated-text-and-home',
    minAgreement: 0.85,
    zpl: [
      '^XA^PW812^LL812^LH20,20^FWR',
      '^FO20,20^A0,50,50^FDRIGHT^FS',
      '^FO200,20^A0I,50,50^FDINVERTED^FS',
      '^FO400,20^A0B,50,50^FDBOTTOM^FS',
      '^FWN^FO20,500^ADN,36,20^FDFONT D^FS',
      '^FO20,600^AFN,26,13^FDFONT F 123^FS',
      '^FT500,700^A0N,40,40^FDbaseline^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
  },
];
