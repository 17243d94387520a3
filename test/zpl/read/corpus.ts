/**
 * Labels written by the team from the ZPL II guide's command descriptions, in the shapes carrier labels take
 * (boxes and rules, ^A0 text, ^BC tracking numbers, ^BQ / ^BX / ^B7 2D codes, a ^GFA logo). Not copied from any
 * carrier or third party. Each names the bar code values a scanner must read from it.
 */
export interface CorpusLabel {
  name: string;
  /** Which label of the stream is compared (default 0: the stream has one). */
  labelIndex?: number;
  zpl: string;
  /** Values our image must decode to (zbarimg and ZXing), sorted. */
  barcodes: string[];
  /** Values of bar codes the independent renderer does not draw (zebrash has no ^BU, UPC-A). */
  theirsLacks?: string[];
  /** zebrash refuses the label with this error (it is then not compared). */
  theirsFails?: RegExp;
  /** Least share of black dots of each image within a dot of the other's (default 0.9). */
  minAgreement?: number;
  /** Why the dots agree less than 0.9, or are not compared (docs/zpl.md says which matches the printer). */
  differs?: string;
  /** Text fields Tesseract must read from both images: the ^FD text and the field's box in dots [x, y, w, h]. */
  ocr?: Array<{ text: string; box: [number, number, number, number] }>;
  /** Warnings the reader must give for this label (a font drawn with another face…), as patterns. */
  warnings?: RegExp[];
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
    differs: 'zebrash does not draw ^BU',
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
    differs: 'zebrash draws neither ^GE nor ^BA',
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
    differs: 'zebrash draws neither ^BK nor ^B8',
    zpl: '^XA^PW812^LL609^FO40,40^BY3^BKN,N,100,Y,N,A,B^FD123456^FS^FO40,300^BY3^B8N,100,Y,N^FD1234567^FS^XZ',
    barcodes: ['12345670', 'A123456B'],
    theirsLacks: ['12345670', 'A123456B'],
    minAgreement: 0,
  },
  {
    // Text only: the faces differ (docs/zpl.md "Fonts"), the placement of every rotation agrees.
    name: 'rotated-text-and-home',
    differs: '^A0 face: zebrash a condensed Helvetica-like face, ours DejaVu Sans Bold squeezed',
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

/** A hex ^GFA body without compression: `rows` rows of `bytes` bytes, a checker of 8-dot squares. */
function checkerHex(bytes: number, rows: number): string {
  let out = '';
  for (let y = 0; y < rows; y++)
    for (let b = 0; b < bytes; b++) out += (b + (y >> 3)) % 2 === 0 ? 'FF' : '00';
  return out;
}

export const MORE_CORPUS: CorpusLabel[] = [
  {
    name: 'ups-shape-maxicode',
    zpl: [
      '^XA^PW812^LL1218^LH0,0',
      '^FO10,10^GB792,1198,3^FS',
      '^FO30,30^A0N,30,30^FDSHIPPER NAME^FS^FO30,64^A0N,24,24^FD100 MAIN ST^FS',
      '^FO30,92^A0N,24,24^FDANYTOWN GA 30301^FS',
      '^FO600,30^A0N,40,40^FD2 LBS^FS^FO600,76^A0N,30,30^FD1 OF 1^FS',
      '^FO30,160^A0N,30,30^FDSHIP TO:^FS',
      '^FO60,200^FB500,4,4,L,0^A0N,36,34^FDRECEIVER COMPANY\\&200 ELM AVENUE\\&SUITE 12\\&SPRINGFIELD IL 62701^FS',
      '^FO10,380^GB792,3,3^FS',
      '^FO30,400^BD2,1,1^FH^FD002840627010000[)>_1E01_1D961Z12345678_1DUPSN_1D12345E_1D089_1D_1D1/1_1D2_1DN_1D_1DSPRINGFIELD_1DIL_1E_04^FS',
      '^FO300,420^A0N,90,80^FDIL 627 9-01^FS',
      '^FO300,540^BY3^BCN,80,N,N,N^FD42062701^FS',
      '^FO10,650^GB792,10,10^FS',
      '^FO30,680^A0N,60,50^FDUPS GROUND^FS',
      '^FO30,760^A0N,30,30^FDTRACKING #: 1Z 123 45E 03 1234 5678^FS',
      '^FO10,810^GB792,3,3^FS',
      '^FO90,840^BY3^BCN,230,N,N,N^FD1Z12345E0312345678^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['1Z12345E0312345678', '42062701'],
    ocr: [{ text: 'UPS GROUND', box: [20, 670, 420, 80] }],
  },
  {
    name: 'maxicode-mode2',
    zpl: '^XA^PW300^LL280^FO20,20^BD2,1,1^FH^FD001840152382802[)>_1E01_1D961Z00004951_1DUPSN_1D06X610_1D159_1D1234567_1D1/1_1D_1DY_1D634 ALPHA DR_1DPITTSBURGH_1DPA_1E_04^FS^XZ',
    minAgreement: 0.55,
    differs:
      'hexagon size and spacing: each draws its own MaxiCode geometry (the guide fixes the symbol at about 1.11 × 1.054 in); both decode',
    barcodes: [
      '[)>\x1e01\x1d96152382802\x1d840\x1d001\x1d1Z00004951\x1dUPSN\x1d06X610\x1d159\x1d1234567\x1d1/1\x1d\x1dY\x1d634 ALPHA DR\x1dPITTSBURGH\x1dPA\x1e\x04',
    ],
  },
  {
    name: 'maxicode-mode4',
    zpl: '^XA^PW300^LL280^FO20,20^BD4^FDLABELDESK FREE TEXT 42^FS^XZ',
    barcodes: ['LABELDESK FREE TEXT 42'],
    theirsLacks: ['LABELDESK FREE TEXT 42'],
    theirsFails: /maxicode/,
    minAgreement: 0,
    differs:
      'zebrash refuses mode 4 data ("invalid length of maxicode data"); the guide takes free text in modes 4–6',
  },
  {
    name: 'fedex-shape-pdf417',
    zpl: [
      '^XA^PW812^LL1218',
      '^FO20,20^A0N,28,28^FDORIGIN ID: ABCD  (555) 555-0100^FS',
      '^FO20,54^A0N,24,24^FDSHIPPING DEPT^FS^FO20,82^A0N,24,24^FD1 HARBOR WAY^FS',
      '^FO500,20^A0N,24,24^FDSHIP DATE: 01JAN26^FS^FO500,48^A0N,24,24^FDACTWGT: 3.0 LB^FS',
      '^FO20,130^A0N,30,30^FDTO^FS^FO70,130^A0N,36,36^FDJOHN RECEIVER^FS',
      '^FO70,172^A0N,36,36^FD55 OAK STREET^FS^FO70,214^A0N,40,40^FDPORTLAND OR 97201^FS',
      '^FO20,280^GB772,2,2^FS',
      '^FO40,300^BY2^B7N,4,5,12^FD[)>01 FEDEX 123456789012 0201 PORTLAND OR 97201 LABELDESK^FS',
      '^FO20,560^GB772,2,2^FS',
      '^FO20,580^A0N,50,50^FDTRK# 1234 5678 9012^FS',
      '^FO520,580^A0N,70,70^FDPRIORITY^FS',
      '^FO60,700^BY3^BCN,250,N,N,N^FD>;9612345678901234567890^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['9612345678901234567890', '[)>01 FEDEX 123456789012 0201 PORTLAND OR 97201 LABELDESK'],
    ocr: [{ text: 'TRK# 1234 5678 9012', box: [10, 570, 500, 70] }],
  },
  {
    name: 'dhl-shape-code128-subsets',
    zpl: [
      '^XA^PW812^LL1015',
      '^FO0,0^GB812,100,100^FS',
      '^FO30,20^FR^A0N,70,60^FDEXPRESS^FS',
      '^FO20,130^A0N,30,30^FDFrom: Sender GmbH, Hafenstr. 1^FS',
      '^FO20,170^A0N,30,30^FDTo: Receiver Ltd, 2 Dock Road^FS',
      '^FO40,230^BY2^BCN,120,Y,N,N,A^FDJJD0001234567890^FS',
      '^FO40,630^BY2^BCN,120,Y,N,N^FD>;0012>6XY^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['JJD0001234567890', '0012XY'],
    ocr: [{ text: 'EXPRESS', box: [20, 10, 360, 85] }],
  },
  {
    name: 'dpd-shape-gs1-128',
    zpl: [
      '^XA^PW812^LL812',
      '^FO20,20^A0N,60,60^FDPARCEL 1/1^FS',
      '^FO20,100^GB772,4,4^FS',
      '^FO40,140^BY2^BCN,160,Y,N,N^FD>;>800123456789012345675^FS',
      '^FO40,420^BY2^BCN,140,N,N,N,D^FD(01)09501101530003(17)261231^FS',
      '^FO40,620^A0N,40,40^FD(01)09501101530003(17)261231^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['00123456789012345675', '010950110153000317261231'],
    ocr: [{ text: 'PARCEL 1/1', box: [10, 10, 400, 80] }],
  },
  {
    name: 'usps-shape-impb',
    zpl: [
      '^XA^PW812^LL1218',
      '^FO20,20^GB772,160,6^FS^FO40,40^A0N,120,110^FDP^FS',
      '^FO200,50^A0N,40,40^FDUSPS PRIORITY MAIL^FS',
      '^FO20,200^GB772,60,60^FS^FO160,210^FR^A0N,44,44^FDUSPS TRACKING # EP^FS',
      '^FO80,300^BY3^BCN,200,N,N,N^FD>;>842097201920559012345678901^FS',
      '^FO120,520^A0N,36,36^FD9205 5901 2345 6789 0123 45^FS',
      '^FO20,600^FB772,3,10,C,0^A0N,40,40^FDDELIVER TO\\&ALEX SAMPLE\\&9 PINE RD BOULDER CO 80301^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['42097201920559012345678901'],
    ocr: [{ text: 'USPS PRIORITY MAIL', box: [190, 40, 560, 60] }],
  },
  {
    name: 'fb-justified-and-indent',
    zpl: [
      '^XA^PW812^LL609',
      '^FO20,20^FB500,4,6,J,0^A0N,30,26^FDPlease keep this parcel dry and upright, open with care at the top edge only.^FS',
      '^FO20,200^FB500,4,6,L,40^A0N,30,26^FDHanging indent lines wrap inside a narrower width after the first line.^FS',
      '^FO20,380^FB700,2,0,R,0^A0N,40,40^FDRIGHT ALIGNED^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    minAgreement: 0.78,
    differs:
      'zebrash sets ^FB J lines ragged and applies no hanging indent; the guide: J justifies, the last parameter indents the second and later lines',
    ocr: [{ text: 'RIGHT ALIGNED', box: [380, 370, 340, 60] }],
  },
  {
    name: 'field-block-center',
    zpl: '^XA^PW812^LL406^FO20,40^FB772,3,8,C,0^A0N,50,50^FDCENTRED HEADING\\&second line here^FS^XZ',
    barcodes: [],
    ocr: [{ text: 'CENTRED HEADING', box: [150, 30, 520, 70] }],
  },
  {
    name: 'text-block-tb',
    zpl: '^XA^PW812^LL406^FO30,30^A0N,36,32^TBN,600,120^FDText block wraps in its width and is cut at its height of three lines or so, the rest is lost^FS^XZ',
    barcodes: [],
    minAgreement: 0.36,
    differs:
      '^TB: the two wrap and cut the block differently; the guide: ^TB wraps in its width and cuts what is below its height',
  },
  {
    name: 'bitmap-fonts-a-to-h',
    zpl: [
      '^XA^PW812^LL812',
      '^FO20,20^AAN,18,10^FDFONT A 0123^FS',
      '^FO20,60^ABN,22,14^FDFONT B 0123^FS',
      '^FO20,110^ACN,36,20^FDFONT C 0123^FS',
      '^FO20,170^ADN,36,20^FDFONT D 0123^FS',
      '^FO20,230^AEN,28,15^FDFONT E 0123^FS',
      '^FO20,290^AFN,26,13^FDFONT F 0123^FS',
      '^FO20,340^AGN,60,40^FDFONT G^FS',
      '^FO20,430^AHN,21,13^FDFONT H 0123^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    minAgreement: 0.6,
    differs:
      'bitmap glyph shapes: ours are DejaVu Sans Mono in the printer cells, zebrash has its own bitmaps; the cells agree',
  },
  {
    name: 'bitmap-magnified',
    zpl: [
      '^XA^PW812^LL609',
      '^FO20,20^ADN,72,40^FDD x2^FS',
      '^FO20,120^AEN,84,45^FDE x3^FS',
      '^FO20,240^AFN,52,26^FDF X2^FS',
      '^FO20,330^AAN,45,25^FDA X5^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    minAgreement: 0.6,
    differs: 'bitmap glyph shapes (see bitmap-fonts-a-to-h)',
  },
  {
    name: 'smooth-fonts-p-to-v',
    zpl: [
      '^XA^PW812^LL812',
      '^FO20,20^APN,20,20^FDFONT P^FS',
      '^FO20,60^AQN,28,28^FDFONT Q^FS',
      '^FO20,110^ARN,35,35^FDFONT R^FS',
      '^FO20,170^ASN,40,40^FDFONT S^FS',
      '^FO20,240^ATN,48,48^FDFONT T^FS',
      '^FO20,310^AUN,59,59^FDFONT U^FS',
      '^FO20,400^AVN,80,80^FDFONT V^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    minAgreement: 0.27,
    differs:
      'zebrash draws P–V as its bitmap font A; the printer scales its smooth font to the height asked, as we do',
  },
  {
    name: 'a0-sizes',
    zpl: [
      '^XA^PW812^LL609',
      '^FO20,20^A0N,20,20^FDSMALL TEXT 20^FS',
      '^FO20,60^A0N,40,30^FDNARROW TEXT 40^FS',
      '^FO20,120^A0N,80,80^FDLARGE 80^FS',
      '^FO20,240^A0N,120,60^FDTALL 120^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    minAgreement: 0.7,
    differs: '^A0 face (see rotated-text-and-home): the larger the text, the more dots the faces differ by',
    ocr: [
      { text: 'LARGE 80', box: [10, 110, 420, 100] },
      { text: 'TALL 120', box: [10, 230, 400, 140] },
    ],
  },
  {
    name: 'rotated-fields-fw',
    differs: '^A0 face (see rotated-text-and-home)',
    zpl: [
      '^XA^PW812^LL812',
      '^FWB^FO20,20^A0,40,40^FDBOTTOM UP^FS',
      '^FWI^FO200,300^A0,40,40^FDUPSIDE^FS',
      '^FWN^FO300,40^A0R,40,40^FDROTATED^FS',
      '^FO400,400^BY2^BCB,100,N,N,N^FDROT270^FS',
      '^FO550,400^BY2^BCI,100,N,N,N^FDROT180^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['ROT180', 'ROT270'],
    minAgreement: 0.85,
  },
  {
    name: 'label-shift-and-top',
    zpl: [
      '^XA^PW812^LL609^LS-20^LT10^LH30,20',
      '^FO0,0^GB400,200,4^FS',
      '^FO20,20^A0N,40,40^FDSHIFTED^FS',
      '^FO20,260^BY2^B3N,N,100,N,N^FDSHIFT39^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['SHIFT39'],
    minAgreement: 0.5,
    differs:
      'fields placed differently under ^LS/^LT; the guide: ^LS shifts every field left by its value, ^LT moves the whole label up or down',
    ocr: [{ text: 'SHIFTED', box: [50, 40, 300, 70] }],
  },
  {
    name: 'print-orientation-inverted',
    zpl: [
      '^XA^PW812^LL609^POI',
      '^FO20,20^A0N,50,50^FDUPSIDE DOWN^FS',
      '^FO20,120^BY2^BCN,100,N,N,N^FDINVERT128^FS',
      '^FO500,20^GB200,200,8^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['INVERT128'],
    minAgreement: 0,
    differs:
      'not compared: the two images of a ^POI label do not overlap (the guide: ^PO I prints the label turned 180°); both decode',
  },
  {
    name: 'label-reverse-lr',
    zpl: [
      '^XA^PW812^LL406',
      '^FO20,20^GB772,150,150^FS',
      '^LRY^FO60,50^A0N,70,60^FDREVERSED^FS^LRN',
      '^FO20,220^A0N,60,60^FDNORMAL^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    ocr: [{ text: 'NORMAL', box: [10, 210, 300, 80] }],
  },
  {
    name: 'stored-format-fn-fv',
    zpl: [
      '^XA^DFR:ADDR.ZPL^FS^PW812^LL406',
      '^FO20,20^A0N,50,50^FN1"NAME"^FS',
      '^FO20,90^A0N,40,40^FN2^FS',
      '^FO20,160^BY2^BCN,100,N,N,N^FN3^FS',
      '^XZ',
      '^XA^XFR:ADDR.ZPL^FS^FN1^FVPAT DOE^FS^FN2^FV77 BAY ST^FS^FN3^FDFMT77^FS^XZ',
    ].join('\n'),
    barcodes: ['FMT77'],
    minAgreement: 0.75,
    differs:
      'the recalled ^FN fields given by ^FV: zebrash draws their text elsewhere or not at all (not investigated further); the guide: ^FV is ^FD for a field whose data varies',
  },
  {
    name: 'utf8-ci28',
    differs: '^A0 face (see rotated-text-and-home)',
    zpl: '^XA^PW812^LL406^CI28^FO20,20^A0N,50,50^FDZÜRICH ÉTÉ Øst^FS^FO20,100^A0N,50,50^FH^FDK_C3_B6ln_20_C3_85s^FS^XZ',
    barcodes: [],
    minAgreement: 0.85,
  },
  {
    name: 'codepage-ci27-ci13-ci0',
    zpl: [
      '^XA^PW812^LL406',
      '^CI27^FO20,20^A0N,40,40^FH^FDCP1252 _80 _E9t_E9^FS',
      '^CI13^FO20,80^A0N,40,40^FH^FDCP850 _82t_82^FS',
      '^CI0^FO20,140^A0N,40,40^FH^FDCP0 _9Curo_E1^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    minAgreement: 0.69,
    differs:
      'zebrash reads ^CI13/^CI0 bytes above 127 differently; the guide maps ^CI0 and ^CI13 to code page 850',
  },
  {
    name: 'fh-custom-indicator',
    zpl: '^XA^PW812^LL406^FO20,20^A0N,50,50^FH#^FDHASH#2D23 OK^FS^FO20,100^BY2^BCN,100,Y,N,N^FH^FDAB_2DCD^FS^XZ',
    barcodes: ['AB-CD'],
    minAgreement: 0.87,
    differs: '^A0 face (see rotated-text-and-home)',
  },
  {
    name: 'graphic-shapes',
    zpl: [
      '^XA^PW812^LL812',
      '^FO20,20^GB300,150,6,B,4^FS',
      '^FO360,20^GC140,10,B^FS',
      '^FO540,20^GE220,120,8,B^FS',
      '^FO20,220^GD200,150,8,B,L^FS',
      '^FO260,220^GD200,150,8,B,R^FS',
      '^FO500,220^GB260,150,150^FS^FO540,240^GB180,110,110,W^FS',
      '^FO20,420^GB772,0,3^FS^FO20,440^GB0,300,3^FS',
      '^FO100,500^GSN,80,80^FDB^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    minAgreement: 0.8,
    differs: '^GE and ^GS: zebrash draws no ellipse and no ^GS symbol; the guide draws both',
  },
  {
    name: 'graphic-binary-gfb',
    zpl: `^XA^PW406^LL203^FO20,20^GFA,640,640,10,${checkerHex(10, 64)}^FS^XZ`,
    barcodes: [],
  },
  {
    name: 'graphic-dy-im',
    zpl: [
      `~DYR:CHECK,A,G,512,8,${checkerHex(8, 64)}`,
      '^XA^PW406^LL203^FO20,20^IMR:CHECK.GRF^FS^FO120,20^XGR:CHECK.GRF,2,1^FS^XZ',
    ].join('\n'),
    barcodes: [],
    theirsFails: /No labels parsed/,
    minAgreement: 0,
    differs:
      'zebrash reads no label from a stream that starts with ~DY; the guide downloads the graphic, then ^IM and ^XG draw it',
  },
  {
    name: 'image-save-load',
    zpl: [
      '^XA^PW406^LL203^FO10,10^GB100,100,10^FS^FO30,40^A0N,30,30^FDIS^FS^ISR:BOX.GRF,N^XZ',
      '^XA^PW406^LL203^ILR:BOX.GRF^FO200,10^GB150,100,4^FS^XZ',
    ].join('\n'),
    labelIndex: 1,
    barcodes: [],
    minAgreement: 0,
    differs: 'zebrash keeps no ^IS image between labels (it draws only the ^GB); the guide loads it with ^IL',
  },
  {
    name: 'prefix-changes-cc-ct-cd',
    zpl: [
      '^XA^CC+',
      '+PW812+LL406+CD;',
      '+FO20;20+A0N;50;50+FDPLUS PREFIX+FS',
      '+CC^^XZ',
      '~CT#^XA^FO20,100^A0N,50,50^FDBACK^FS^XZ',
    ].join('\n'),
    labelIndex: 0,
    barcodes: [],
    minAgreement: 0,
    differs: 'zebrash does not follow ^CC; the guide changes the prefix for the rest of the stream',
  },
  {
    name: 'prefix-tilde-and-delimiter-forms',
    zpl: '^XA~CC^^PW812^LL203^CD;^FO20;20^A0N;40;40^FDSEMICOLON^FS~CD,^FO20,80^A0N,40,40^FDCOMMA^FS^CT~^XZ',
    barcodes: [],
    minAgreement: 0,
    differs: 'zebrash does not follow ^CD; the guide changes the delimiter for what follows',
  },
  {
    name: 'code39-check-and-hri-above',
    minAgreement: 0.82,
    differs: 'the interpretation lines: ours DejaVu Sans Mono, zebrash its own face; the bars agree',
    zpl: '^XA^PW812^LL406^FO40,40^BY2,3,100^B3N,N,100,Y,Y^FDC39CHECK^FS^FO40,220^BY2,2.5^B3N,N,100,Y,N^FD12345^FS^XZ',
    barcodes: ['12345', 'C39CHECK'],
  },
  {
    name: 'itf-with-check',
    zpl: '^XA^PW812^LL406^FO40,40^BY3,3,120^B2N,120,Y,N,Y^FD1234567^FS^XZ',
    barcodes: ['12345670'],
  },
  {
    name: 'ean13-ean8-upce',
    zpl: '^XA^PW812^LL609^FO60,40^BY2^BEN,100,Y,N^FD501234567890^FS^FO60,240^BY2^B8N,100,Y,N^FD5512345^FS^FO60,420^BY2^B9N,100,Y,N^FD0123456^FS^XZ',
    barcodes: ['012345000065', '5012345678900', '55123457'],
    theirsLacks: ['012345000065', '55123457'],
    minAgreement: 0,
    differs: 'zebrash draws neither ^B8 nor ^B9 (it prints their data as text)',
  },
  {
    name: 'code11',
    zpl: '^XA^PW812^LL406^FO40,40^BY2^B1N,N,100,Y,N^FD0123-45^FS^XZ',
    barcodes: [],
    minAgreement: 0,
    differs: 'no decoder at hand reads Code 11; zebrash does not draw it',
  },
  {
    name: 'code93',
    zpl: '^XA^PW812^LL406^FO40,40^BY2^BAN,100,Y,N,N^FDCODE93 TEST^FS^XZ',
    barcodes: ['CODE93 TEST'],
    theirsLacks: ['CODE93 TEST'],
    minAgreement: 0,
    differs: 'zebrash does not draw ^BA',
  },
  {
    name: 'codabar-start-stop',
    zpl: '^XA^PW812^LL406^FO40,40^BY2^BKN,N,100,Y,N,C,D^FD40156-2^FS^XZ',
    barcodes: ['C40156-2D'],
    theirsLacks: ['C40156-2D'],
    minAgreement: 0,
    differs: 'zebrash does not draw ^BK',
  },
  {
    name: 'qr-byte-and-magnified',
    zpl: '^XA^PW812^LL812^FO20,20^BQN,2,4^FDMA,LabelDesk QR byte mode 0123^FS^FO420,20^BQN,2,8^FDHA,HIGH ECC^FS^XZ',
    minAgreement: 0.84,
    differs: 'QR codewords: the two encoders choose different, equally valid encodings of the same data',
    barcodes: ['HIGH ECC', 'LabelDesk QR byte mode 0123'],
  },
  {
    name: 'datamatrix-sizes',
    zpl: '^XA^PW812^LL406^FO20,20^BXN,6,200^FDDM SMALL^FS^FO250,20^BXN,10,200,26,26^FDDM FIXED 26x26 0123456789^FS^XZ',
    minAgreement: 0.78,
    differs: 'Data Matrix codewords: different, equally valid encodings (see qr-byte-and-magnified)',
    barcodes: ['DM FIXED 26x26 0123456789', 'DM SMALL'],
  },
  {
    name: 'datamatrix-hex-escape',
    zpl: '^XA^PW406^LL406^FO20,20^BXN,8,200^FH^FD_1F0109501101530003172612311012AB^FS^XZ',
    barcodes: ['\x1f0109501101530003172612311012AB'],
  },
  {
    name: 'pdf417-rotated',
    zpl: '^XA^PW812^LL812^FO100,40^BY2^B7N,5,2,4^FDROTATED PDF417 0123^FS^XZ',
    barcodes: ['ROTATED PDF417 0123'],
  },
  {
    name: 'aztec-b0-bo',
    zpl: '^XA^PW812^LL406^FO20,20^B0N,5,N,0,N,1^FDAZTEC B0 0123^FS^FO400,20^BON,5,N,0,N,1^FDAZTEC BO^FS^XZ',
    theirsLacks: ['AZTEC B0 0123'],
    minAgreement: 0.25,
    differs:
      'zebrash draws ^B0 so that neither decoder reads it; ^BO agrees; the guide: ^B0 and ^BO are the same Aztec command',
    barcodes: ['AZTEC B0 0123', 'AZTEC BO'],
  },
  {
    name: 'serial-sn-sf',
    zpl: [
      '^XA^PW812^LL406',
      '^FO20,20^A0N,60,60^SNCTN0001,1,Y^FS',
      '^FO20,120^BY2^BCN,100,Y,N,N^FDPAL0098^SFAAAdddd,1^FS',
      '^PQ3^XZ',
    ].join('\n'),
    barcodes: ['PAL0098'],
    minAgreement: 0.7,
    differs:
      'zebrash draws no ^SN field; the guide: ^SN prints its starting value on the first label and counts on the copies',
  },
  {
    name: 'fonts-cf-cw-a-at',
    zpl: [
      '^XA^PW812^LL406^CWZ,E:ARIAL.TTF',
      '^CF0,40^FO20,20^FDDEFAULT FONT^FS',
      '^FO20,80^AZN,40,40^FDALIAS Z^FS',
      '^FO20,140^A@N,40,40,E:ARIAL.TTF^FDBY NAME^FS',
      '^XZ',
    ].join('\n'),
    barcodes: [],
    minAgreement: 0.55,
    differs: 'fonts loaded from the printer by name: both draw a stand-in face',
    warnings: [/ARIAL/, /ARIAL/],
    ocr: [{ text: 'DEFAULT FONT', box: [10, 10, 400, 60] }],
  },
  {
    name: 'settings-recorded',
    zpl: [
      '^XA^MMT^MNY^MTD^MD10~SD20^PR4^PW812^LL406^JUS^XB',
      '^FO20,20^A0N,50,50^FDSETTINGS^FS^FX a comment^FS',
      '^XZ',
      '~JA~JR^XA^IDR:OLD.GRF^FS^XZ',
    ].join('\n'),
    labelIndex: 0,
    barcodes: [],
    warnings: [/blank/],
    ocr: [{ text: 'SETTINGS', box: [10, 10, 300, 70] }],
  },
  {
    name: 'field-typeset-right-justified',
    zpl: '^XA^PW812^LL406^FT790,80,1^A0N,50,50^FDRIGHT EDGE^FS^FO790,120,1^GB200,60,60^FS^XZ',
    barcodes: [],
    minAgreement: 0,
    differs:
      'zebrash ignores the justification parameter of ^FO/^FT; the guide: 1 is right justification, the field ends at x',
  },
  {
    name: 'warehouse-pallet',
    zpl: [
      '^XA^PW812^LL1218^CI28',
      '^FO20,20^GB772,1178,4^FS',
      '^FO40,40^A0N,50,50^FDPALLET LABEL^FS',
      '^FO40,110^A0N,30,30^FDSSCC^FS',
      '^FO40,150^BY3^BCN,200,Y,N,N^FD>;>800376123450000000017^FS',
      '^FO40,460^GB732,3,3^FS',
      '^FO40,480^A0N,30,30^FDGTIN 09501101530003  QTY 48^FS',
      '^FO40,530^BY2^BCN,150,Y,N,N^FD>;>802095011015300033748^FS',
      '^FO40,780^BQN,2,5^FDQA,PALLET-00376123450000000017^FS',
      '^FO450,800^BXN,6,200^FDLOT-A1B2^FS',
      '^XZ',
    ].join('\n'),
    barcodes: ['00376123450000000017', '02095011015300033748', 'LOT-A1B2', 'PALLET-00376123450000000017'],
    ocr: [{ text: 'PALLET LABEL', box: [30, 30, 400, 70] }],
  },
];
