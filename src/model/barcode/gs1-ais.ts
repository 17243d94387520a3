/**
 * The GS1 Application Identifier table: what each AI's data is (digits or characters, fixed or variable length,
 * check digit, date…), which AIs exclude each other, and — for the 2D symbols, which carry a whole item's data in
 * one symbol — which AIs need another with them (bwip-js checks those for GS1 DataMatrix and QR, not GS1-128).
 * Transcribed from the GS1 Barcode Syntax Dictionary as BWIPP 2026-05-28 ships it in bwip-js 4.11 (which lints
 * with it), with titles in plain words for messages.
 *
 * A row is `[AI, title, parts, exclusive, requisites]`:
 * - `parts`: the data's components in order, comma-separated: `N` digits, `X` GS1 character set 82, `Y` set 39,
 *   `Z` set 64; `N18` exactly 18, `X..20` 1 to 20; `[…]` optional; then the checks of that component (see
 *   Check in gs1.ts: `csum` GS1 check digit, `date0` YYMMDD with day 00 allowed, `date` YYMMDD, …).
 * - `exclusive`: AIs that cannot be in the same element string (space-separated; `n` stands for any digit).
 * - `requisites`: `&`-separated groups that must each be satisfied; `|` between alternatives; `+` joins AIs that
 *   must all be present.
 * An AI written `7030-7039` is a range of AIs with the same row.
 */
export type AiRow = readonly [
  ai: string,
  title: string,
  parts: string,
  exclusive?: string,
  requisites?: string,
];

export const AI_ROWS: readonly AiRow[] = [
  ['00', 'SSCC', 'N18 csum'],
  ['01', 'GTIN', 'N14 csum', '255 37'],
  ['02', 'GTIN of contained items', 'N14 csum', '01 03', '37'],
  ['03', 'GTIN of made-to-order item', 'N14 csum', '01 02 37'],
  ['10', 'batch/lot', 'X..20', '', '01|02|03|8006|8026'],
  ['11', 'production date', 'N6 date0', '', '01|02|03|8006|8026'],
  ['12', 'due date', 'N6 date0', '', '8020'],
  ['13', 'packaging date', 'N6 date0', '', '01|02|03|8006|8026'],
  ['15', 'best before date', 'N6 date0', '', '01|02|03|8006|8026'],
  ['16', 'sell by date', 'N6 date0', '', '01|02|03|8006|8026'],
  ['17', 'expiry date', 'N6 date0', '', '01|02|03|255|8006|8026'],
  ['20', 'variant', 'N2', '', '01|02|8006|8026'],
  ['21', 'serial number', 'X..20', '235', '01|03|8006'],
  ['22', 'consumer product variant', 'X..20', '', '01'],
  ['235', 'third-party serial number', 'X..28', '', '01'],
  ['240', 'additional product ID', 'X..30', '', '01|02|8006|8026'],
  ['241', 'customer part number', 'X..30', '', '01|02|8006|8026'],
  ['242', 'made-to-order variant', 'N..6', '', '01|02|8006|8026'],
  ['243', 'packaging component number', 'X..20', '', '01'],
  ['250', 'secondary serial number', 'X..30', '', '01|8006 & 21'],
  ['251', 'reference to source entity', 'X..30', '', '01|8006'],
  ['253', 'GDTI (document type)', 'N13 csum, [X..17]'],
  ['254', 'GLN extension', 'X..20', '', '414'],
  ['255', 'GCN (coupon)', 'N13 csum, [N..12]', '01 02 415 8006 8020 8026'],
  ['30', 'variable count', 'N..8', '', '01|02'],
  ['37', 'count of items', 'N..8', '', '00 & 02|8026'],
  ['400', "customer's order number", 'X..30'],
  ['401', 'GINC (consignment)', 'X..30 gcp'],
  ['402', 'GSIN (shipment)', 'N17 csum'],
  ['403', 'routing code', 'X..30', '', '00'],
  ['410', 'ship-to GLN', 'N13 csum'],
  ['411', 'bill-to GLN', 'N13 csum'],
  ['412', 'purchased-from GLN', 'N13 csum'],
  ['413', 'ship-for GLN', 'N13 csum'],
  ['414', 'location GLN', 'N13 csum'],
  ['415', 'invoicing party GLN', 'N13 csum', '', '8020'],
  ['416', 'production/service location GLN', 'N13 csum'],
  ['417', 'party GLN', 'N13 csum'],
  ['420', 'ship-to postal code', 'X..20', '421'],
  ['421', 'ship-to postal code with country', 'N3 country, X..9', '4307'],
  ['422', 'country of origin', 'N3 country', '426', '01|02|8006|8026'],
  [
    '423',
    'country of initial processing',
    'N3 country, [N3 country], [N3 country], [N3 country], [N3 country]',
    '426',
    '01|02',
  ],
  ['424', 'country of processing', 'N3 country', '426', '01|02'],
  [
    '425',
    'country of disassembly',
    'N3 country, [N3 country], [N3 country], [N3 country], [N3 country]',
    '426',
    '01|02',
  ],
  ['426', 'country of full processing', 'N3 country', '', '01|02'],
  ['427', 'subdivision of origin', 'X..3', '', '01|02 & 422'],
  ['4300', 'ship-to company', 'X..35', '', '00'],
  ['4301', 'ship-to contact', 'X..35', '', '00'],
  ['4302', 'ship-to address line 1', 'X..70', '', '00'],
  ['4303', 'ship-to address line 2', 'X..70', '', '4302'],
  ['4304', 'ship-to suburb', 'X..70', '', '00'],
  ['4305', 'ship-to locality', 'X..70', '', '00'],
  ['4306', 'ship-to region', 'X..70', '', '00'],
  ['4307', 'ship-to country', 'X2 country2', '', '00'],
  ['4308', 'ship-to telephone', 'X..30', '', '00'],
  ['4309', 'ship-to geolocation', 'N10 lat, N10 long', '', '00'],
  ['4310', 'return-to company', 'X..35', '', '00'],
  ['4311', 'return-to contact', 'X..35', '', '00'],
  ['4312', 'return-to address line 1', 'X..70', '', '00'],
  ['4313', 'return-to address line 2', 'X..70', '', '4312'],
  ['4314', 'return-to suburb', 'X..70', '', '00'],
  ['4315', 'return-to locality', 'X..70', '', '00'],
  ['4316', 'return-to region', 'X..70', '', '00'],
  ['4317', 'return-to country', 'X2 country2', '', '00'],
  ['4318', 'return-to postal code', 'X..20', '', '00'],
  ['4319', 'return-to telephone', 'X..30', '', '00'],
  ['4320', 'service code description', 'X..35', '', '00'],
  ['4321', 'dangerous goods flag', 'N1 yesno', '', '00'],
  ['4322', 'authority to leave', 'N1 yesno', '', '00'],
  ['4323', 'signature required', 'N1 yesno', '', '00'],
  ['4324', 'not before delivery date/time', 'N6 date0, N4 hhmi', '', '00'],
  ['4325', 'not after delivery date/time', 'N6 date0, N4 hhmi', '', '00'],
  ['4326', 'release date', 'N6 date', '', '00'],
  ['4330', 'maximum temperature (°F)', 'N6, [X1 hyphen]', '4331', '00'],
  ['4331', 'maximum temperature (°C)', 'N6, [X1 hyphen]', '4330', '00'],
  ['4332', 'minimum temperature (°F)', 'N6, [X1 hyphen]', '4333', '00'],
  ['4333', 'minimum temperature (°C)', 'N6, [X1 hyphen]', '4332', '00'],
  ['7001', 'NATO stock number', 'N13', '', '01|02|8006|8026'],
  ['7002', 'UNECE meat carcasses and cuts', 'X..30', '', '01|02'],
  ['7003', 'expiry date and time', 'N6 date, N4 hhmi', '', '01|02'],
  ['7004', 'active potency', 'N..4', '', '01+10'],
  ['7005', 'catch area', 'X..12', '', '01|02'],
  ['7006', 'first freeze date', 'N6 date', '', '01|02'],
  ['7007', 'harvest date', 'N6 date, [N6 date]', '', '01|02'],
  ['7008', 'aquatic species', 'X..3', '', '01|02'],
  ['7009', 'fishing gear type', 'X..10', '', '01|02'],
  ['7010', 'production method', 'X..2', '', '01|02'],
  ['7011', 'test by date', 'N6 date, [N4 hhmi]', '', '01|02'],
  ['7020', 'refurbishment lot', 'X..20', '', '01|8006 & 416'],
  ['7021', 'functional status', 'X..20', '', '01|8006'],
  ['7022', 'revision status', 'X..20', '', '7021'],
  ['7023', 'GIAI of an assembly', 'X..30 gcp'],
  ['7030-7039', 'approval number of processor', 'N3 country999, X..27', '', '01|02'],
  ['7040', 'GS1 UIC with extension', 'N1, X1, X1, X1 importer'],
  ['7041', 'UN/CEFACT freight unit type', 'X..4', '', '00'],
  ['710', 'national healthcare reimbursement number, Germany (PZN)', 'X..20', '', '01'],
  ['711', 'national healthcare reimbursement number, France (CIP)', 'X..20', '', '01'],
  ['712', 'national healthcare reimbursement number, Spain', 'X..20', '', '01'],
  ['713', 'national healthcare reimbursement number, Brazil (DRN)', 'X..20', '', '01'],
  ['714', 'national healthcare reimbursement number, Portugal (AIM)', 'X..20', '', '01'],
  ['715', 'national healthcare reimbursement number, United States (FDA)', 'X..20', '', '01'],
  ['716', 'national healthcare reimbursement number, Italy (AIC)', 'X..20', '', '01'],
  ['717', 'national healthcare reimbursement number, Spain (AEMPS)', 'X..20', '', '01'],
  ['7230-7239', 'certification reference', 'X2, X..28', '', '01|8004'],
  ['7240', 'protocol ID', 'X..20', '', '01|8006'],
  ['7241', 'AIDC media type', 'N2 media', '', '8017|8018'],
  ['7242', 'version control number', 'X..25', '', '8017|8018'],
  ['7250', 'date of birth', 'N8 date8', '7251', '8018'],
  ['7251', 'date and time of birth', 'N8 date8, N4 hhmi', '7250', '8018'],
  ['7252', 'biological sex', 'N1 sex', '', '8018'],
  ['7253', 'family name', 'X..40', '7256 7259', '8017|8018'],
  ['7254', 'given name', 'X..40', '7256 7259', '8017|8018'],
  ['7255', 'name suffix', 'X..10', '7256 7259', '8017|8018'],
  ['7256', 'full name', 'X..90', '', '8017|8018'],
  ['7257', 'address', 'X..70', '', '8018'],
  ['7258', 'baby birth sequence', 'X3', '', '8018+7259'],
  ['7259', 'baby of family name', 'X..40', '7256', '8018'],
  ['8001', 'roll dimensions', 'N4 nonzero, N5 nonzero, N3 nonzero, N1 winding, N1', '', '01'],
  ['8002', 'mobile phone ID', 'X..20'],
  ['8003', 'GRAI (returnable asset)', 'N1 zero, N13 csum, [X..16]'],
  ['8004', 'GIAI (individual asset)', 'X..30 gcp'],
  ['8005', 'price per unit of measure', 'N6', '', '01|02'],
  ['8006', 'ITIP (piece of a trade item)', 'N14 csum, N4 piece', '01 37'],
  ['8007', 'IBAN', 'X..34 iban', '', '415'],
  ['8008', 'production date and time', 'N6 date, N2 hh, [N2 mi], [N2 ss]', '', '01|02'],
  ['8009', 'optically readable sensor indicator', 'X..50', '', '00|01'],
  ['8010', 'CPID (component/part)', 'Y..30 gcp'],
  ['8011', 'CPID serial number', 'N..12 nozero', '', '8010'],
  ['8012', 'software version', 'X..20', '', '01|8006'],
  ['8013', 'GMN (model number)', 'X..25 csumalpha gcp'],
  ['8014', 'MUDI (medical device)', 'X..25 csumalpha gcp nondigit', '', '01'],
  ['8017', 'GSRN of a provider', 'N18 csum', '8018'],
  ['8018', 'GSRN of a recipient', 'N18 csum', '8017'],
  ['8019', 'service relation instance number', 'N..10', '', '8017|8018'],
  ['8020', 'payment slip reference number', 'X..25', '', '415'],
  ['8026', 'ITIP of contained pieces', 'N14 csum, N4 piece', '02 8006', '37'],
  ['8030', 'digital signature', 'Z..90', '', '00|01+21|253|255|8003|8004|8006+21|8010+8011|8017|8018'],
  ['8040', '', 'N15', '', '01+21'],
  ['8041', '', 'N15', '', '01+21+8040'],
  ['8042', '', 'N32', '', '01+21+8040'],
  ['8043', '', 'N18, [N..2]', '', '01+21+8040'],
  ['8110', 'coupon code (North America)', 'X..70'],
  ['8111', 'loyalty points of a coupon', 'N4', '', '255'],
  ['8112', 'paperless coupon code (North America)', 'X..70'],
  ['8200', 'extended packaging URL', 'X..70', '', '01'],
  ['90', 'internal (agreed between partners)', 'X..30'],
  ['91-99', 'internal (company)', 'X..90'],
];

/**
 * Measures and amounts: `310n` … `395n`, the last digit `n` being the number of decimals (0 up to `decimals`).
 * `[prefix, title, parts, decimals, exclusive, requisites]`.
 */
export type MeasureRow = readonly [
  prefix: string,
  title: string,
  parts: string,
  decimals: number,
  exclusive: string,
  requisites: string,
];

const TRADE = '01|02';
const LOGISTIC = '00|01';
const PRICED = '30|31nn|32nn|35nn|36nn';
const measure = (prefix: string, title: string, requisites: string): MeasureRow => [
  prefix,
  title,
  'N6',
  5,
  `${prefix}n`,
  requisites,
];

export const MEASURE_ROWS: readonly MeasureRow[] = [
  measure('310', 'net weight (kg)', TRADE),
  measure('311', 'length (m)', TRADE),
  measure('312', 'width (m)', TRADE),
  measure('313', 'depth (m)', TRADE),
  measure('314', 'area (m²)', TRADE),
  measure('315', 'net volume (l)', TRADE),
  measure('316', 'net volume (m³)', TRADE),
  measure('320', 'net weight (lb)', TRADE),
  measure('321', 'length (in)', TRADE),
  measure('322', 'length (ft)', TRADE),
  measure('323', 'length (yd)', TRADE),
  measure('324', 'width (in)', TRADE),
  measure('325', 'width (ft)', TRADE),
  measure('326', 'width (yd)', TRADE),
  measure('327', 'depth (in)', TRADE),
  measure('328', 'depth (ft)', TRADE),
  measure('329', 'depth (yd)', TRADE),
  measure('330', 'gross weight (kg)', LOGISTIC),
  measure('331', 'logistic length (m)', LOGISTIC),
  measure('332', 'logistic width (m)', LOGISTIC),
  measure('333', 'logistic depth (m)', LOGISTIC),
  measure('334', 'logistic area (m²)', LOGISTIC),
  measure('335', 'logistic volume (l)', LOGISTIC),
  measure('336', 'logistic volume (m³)', LOGISTIC),
  measure('337', 'kilograms per m²', '01'),
  measure('340', 'gross weight (lb)', LOGISTIC),
  measure('341', 'logistic length (in)', LOGISTIC),
  measure('342', 'logistic length (ft)', LOGISTIC),
  measure('343', 'logistic length (yd)', LOGISTIC),
  measure('344', 'logistic width (in)', LOGISTIC),
  measure('345', 'logistic width (ft)', LOGISTIC),
  measure('346', 'logistic width (yd)', LOGISTIC),
  measure('347', 'logistic depth (in)', LOGISTIC),
  measure('348', 'logistic depth (ft)', LOGISTIC),
  measure('349', 'logistic depth (yd)', LOGISTIC),
  measure('350', 'area (in²)', TRADE),
  measure('351', 'area (ft²)', TRADE),
  measure('352', 'area (yd²)', TRADE),
  measure('353', 'logistic area (in²)', LOGISTIC),
  measure('354', 'logistic area (ft²)', LOGISTIC),
  measure('355', 'logistic area (yd²)', LOGISTIC),
  measure('356', 'net weight (troy oz)', TRADE),
  measure('357', 'net volume (oz)', TRADE),
  measure('360', 'net volume (qt)', TRADE),
  measure('361', 'net volume (gal)', TRADE),
  measure('362', 'logistic volume (qt)', LOGISTIC),
  measure('363', 'logistic volume (gal)', LOGISTIC),
  measure('364', 'net volume (in³)', TRADE),
  measure('365', 'net volume (ft³)', TRADE),
  measure('366', 'net volume (yd³)', TRADE),
  measure('367', 'logistic volume (in³)', LOGISTIC),
  measure('368', 'logistic volume (ft³)', LOGISTIC),
  measure('369', 'logistic volume (yd³)', LOGISTIC),
  ['390', 'amount payable', 'N..15', 9, '390n 391n 394n 8111', '255|8020'],
  ['391', 'amount payable with currency', 'N3 currency, N..15', 9, '391n', '8020'],
  ['392', 'price', 'N..15', 9, '392n 393n', `01 & ${PRICED}`],
  ['393', 'price with currency', 'N3 currency, N..15', 9, '393n', PRICED],
  ['394', 'percentage discount of a coupon', 'N4', 3, '394n 8111', '255'],
  ['395', 'price per unit of measure', 'N6', 5, '392n 393n 395n 8005', PRICED],
];

/**
 * AIs whose data has a predefined length (GS1 General Specifications, figure 7.8.5.2-1, by their first two
 * digits): no FNC1 separator follows them. Every other AI ends with FNC1 (GS) unless it is the last.
 */
export const PREDEFINED_LENGTH_PREFIXES: ReadonlySet<string> = new Set(
  '00 01 02 03 04 11 12 13 14 15 16 17 18 19 20 31 32 33 34 35 36 41'.split(' '),
);

/** ISO 3166-1 numeric country codes. */
export const ISO3166_NUMERIC: ReadonlySet<string> = new Set(
  (
    '004 008 010 012 016 020 024 028 031 032 036 040 044 048 050 051 052 056 060 064 068 070 072 074 076 ' +
    '084 086 090 092 096 100 104 108 112 116 120 124 132 136 140 144 148 152 156 158 162 166 170 174 175 ' +
    '178 180 184 188 191 192 196 203 204 208 212 214 218 222 226 231 232 233 234 238 239 242 246 248 250 ' +
    '254 258 260 262 266 268 270 275 276 288 292 296 300 304 308 312 316 320 324 328 332 334 336 340 344 ' +
    '348 352 356 360 364 368 372 376 380 384 388 392 398 400 404 408 410 414 417 418 422 426 428 430 434 ' +
    '438 440 442 446 450 454 458 462 466 470 474 478 480 484 492 496 498 499 500 504 508 512 516 520 524 ' +
    '528 531 533 534 535 540 548 554 558 562 566 570 574 578 580 581 583 584 585 586 591 598 600 604 608 ' +
    '612 616 620 624 626 630 634 638 642 643 646 652 654 659 660 662 663 666 670 674 678 682 686 688 690 ' +
    '694 702 703 704 705 706 710 716 724 728 729 732 740 744 748 752 756 760 762 764 768 772 776 780 784 ' +
    '788 792 795 796 798 800 804 807 818 826 831 832 833 834 840 850 854 858 860 862 876 882 887 894'
  ).split(' '),
);

/** ISO 3166-1 alpha-2 country codes. */
export const ISO3166_ALPHA2: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT ' +
    'BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ' +
    'ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT ' +
    'HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS ' +
    'LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI ' +
    'NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG ' +
    'SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
    'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** ISO 4217 numeric currency codes. */
export const ISO4217_NUMERIC: ReadonlySet<string> = new Set(
  (
    '008 012 032 036 044 048 050 051 052 060 064 068 072 084 090 096 104 108 116 124 132 136 144 152 156 ' +
    '170 174 188 191 192 203 208 214 222 230 232 238 242 262 270 292 320 324 328 332 340 344 348 352 356 ' +
    '360 364 368 376 388 392 396 398 400 404 408 410 414 417 418 422 426 430 434 446 454 458 462 480 484 ' +
    '496 498 504 512 516 524 532 533 548 554 558 566 578 586 590 598 600 604 608 634 643 646 654 682 690 ' +
    '694 702 704 706 710 728 748 752 756 760 764 776 780 784 788 800 807 818 826 834 840 858 860 882 886 ' +
    '901 925 927 928 929 930 931 932 933 934 936 938 940 941 943 944 946 947 948 949 950 951 952 953 955 ' +
    '956 957 958 959 960 961 962 963 964 965 967 968 969 970 971 972 973 975 976 977 978 979 980 981 984 ' +
    '985 986 990 994 997 999'
  ).split(' '),
);
