/**
 * Response schemas of the Point-of-Sale Data Read API, field by field as the spec's tables say
 * (`?` → optional, `|null` → nullable). Objects are loose: fields the spec does not list are
 * kept, so that a record's raw JSON survives schema drift.
 */
import { z } from "zod";

/** The spec says "a string in UUID format"; real systems emit every UUID version, so no
 * version or variant check. */
export const uuid = z.guid();
/** ISO 8601 date-time with an offset or Z, as the API sends it. */
export const dateTime = z.iso.datetime({ offset: true });
const nonNegativeInteger = z.number().int().min(0);

// --- Orders (spec 2.1 - 2.3) ---

export const orderItemTaxSchema = z.looseObject({
  taxName: z.string(),
  /** A fraction: 0.1 for a ten-percent tax. */
  taxRate: z.number(),
  taxAmount: z.number(),
  taxCatalogId: uuid,
});

export const orderItemDiscountSchema = z.looseObject({
  discountName: z.string(),
  discountValue: z.number(),
  discountCatalogId: uuid,
});

export const orderItemModifierSchema = z.looseObject({
  modifierGroupId: uuid,
  modifierId: uuid,
  name: z.string(),
});

export const orderItemSchema = z.looseObject({
  description: z.string(),
  quantity: z.number(),
  weight: z.number().nullable(),
  unitPrice: z.number(),
  total: z.number(),
  category: z.string(),
  subCategory: z.string(),
  isCanceled: z.boolean(),
  cancelReason: z.string().nullable(),
  tier: z.string(),
  isTransferred: z.boolean(),
  transferReason: z.string().nullable(),
  discountsApplied: z.array(orderItemDiscountSchema),
  modifiers: z.array(orderItemModifierSchema),
  // Absent from some representations of the item (spec 2.2).
  stockImpactIndicator: z.boolean().optional(),
  tax: orderItemTaxSchema,
  itemCatalogId: uuid,
  isLoss: z.boolean().optional(),
  lossReason: z.string().nullable().optional(),
  comboParentId: z.string().nullable().optional(),
});

export const orderPaymentSchema = z.looseObject({
  paymentAmount: z.number(),
  paymentName: z.string(),
  paymentCatalogId: uuid,
});

export const SERVICE_TYPES = ["takeout", "eatin", "delivery", "unknown"] as const;

export const orderSchema = z.looseObject({
  id: uuid,
  createdAt: dateTime,
  updatedAt: dateTime,
  customerId: z.string().nullable(),
  deviceId: z.string().nullable(),
  deviceName: z.string().nullable().optional(),
  locationId: uuid,
  reportId: uuid,
  openedAt: dateTime,
  closedAt: dateTime,
  guests: z.number().min(0),
  orderPlace: z.string(),
  orderNumber: z.string(),
  operatorId: uuid,
  operatorName: z.string(),
  total: z.number(),
  totalTax: z.number(),
  totalDiscount: z.number(),
  items: z.array(orderItemSchema),
  /** Element fields are not shown in the spec: kept as they come. */
  menus: z.array(z.record(z.string(), z.unknown())),
  payments: z.array(orderPaymentSchema),
  tips: z.array(z.record(z.string(), z.unknown())).nullable(),
  isCanceled: z.boolean(),
  isTransferred: z.boolean(),
  transferReason: z.string().nullable(),
  cancelReason: z.string().nullable(),
  /** Default `unknown` when absent. */
  channel: z.string().optional(),
  /** Default `unknown` when absent. */
  serviceType: z.enum(SERVICE_TYPES).optional(),
  /** Default false when absent. */
  isTraining: z.boolean().optional(),
  source: z.string(),
  externalOrderId: z.string().nullable(),
  externalLocationId: z.string().nullable(),
});

// --- Reports (spec 2.4) ---

export const reportHeaderInfoSchema = z.looseObject({
  headerAddress: z.string(),
  headerCity: z.string(),
  headerCountry: z.string(),
  headerName: z.string(),
  headerPhone: z.string(),
  headerNaf: z.string(),
  headerSiret: z.string(),
  headerText: z.string(),
  headerTva: z.string(),
  headerZip: z.string(),
  headerUrl: z.string().optional(),
});

export const reportProductSchema = z.looseObject({
  productName: z.string(),
  productSales: z.number(),
  category: z.string(),
  subCategory: z.string(),
  productQuantity: z.number().int(),
  productCatalogId: uuid,
});

export const reportClerkShiftSchema = z.looseObject({
  name: z.string(),
  id: uuid,
  clockInDate: dateTime,
  clockOutDate: dateTime,
});

export const reportDiscountSchema = orderItemDiscountSchema;

export const reportTaxSchema = z.looseObject({
  taxName: z.string(),
  /** Hundredths of a percent: 1000 for a ten-percent tax. */
  taxRate: z.number().int(),
  taxAmount: z.number(),
  taxableAmount: z.number(),
});

export const reportPaymentSchema = z.looseObject({
  paymentName: z.string(),
  paymentAmount: z.number(),
});

export const reportEntrySchema = z.looseObject({
  entryName: z.string(),
  entryAmount: z.number(),
  entryType: z.string(),
});

export const reportSchema = z.looseObject({
  id: uuid,
  createdAt: dateTime,
  updatedAt: dateTime,
  locationId: uuid,
  startedAt: dateTime,
  finalizedAt: dateTime,
  deviceName: z.string(),
  deviceIdentifier: z.string().nullable(),
  reportNumber: z.number().int().min(1),
  guestsNumber: nonNegativeInteger,
  totalSales: z.number(),
  reportHeaderInfo: reportHeaderInfoSchema,
  reportProducts: z.array(reportProductSchema),
  reportClerksShift: z.array(reportClerkShiftSchema),
  clerkName: z.string().nullable(),
  clerkId: uuid.nullable(),
  reportDiscounts: z.array(reportDiscountSchema),
  reportTaxes: z.array(reportTaxSchema),
  reportPayments: z.array(reportPaymentSchema),
  reportEntries: z.array(reportEntrySchema),
  initialCashBalance: nonNegativeInteger.nullable(),
  finalCashBalance: nonNegativeInteger.nullable(),
  orders: z.array(z.string()),
});

// --- Location and devices (spec 2.5) ---

export const deviceSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  model: z.string(),
});

const nullableString = z.string().nullable();

export const locationSchema = z.looseObject({
  id: uuid,
  address: nullableString,
  siret: nullableString,
  city: nullableString,
  country: nullableString,
  naf: nullableString,
  name: nullableString,
  phone: nullableString,
  text: nullableString,
  tva: nullableString,
  url: nullableString,
  zip: nullableString,
  deviceList: z.array(deviceSchema).optional(),
});

// --- Catalog (spec 2.6) ---

export const productSubCategorySchema = z.looseObject({ name: z.string(), id: uuid });

export const productPriceSchema = z.looseObject({
  priceTypeId: z.number().int(),
  priceTypeName: z.string(),
  unitPrice: z.number(),
  /** Hundredths of a percent: 1000 for a ten-percent tax. */
  taxRate: z.number(),
});

export const productSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  category: z.string(),
  categoryId: uuid,
  /** Empty (or absent, which defaults to empty) means archived. */
  subCategories: z.array(productSubCategorySchema).optional(),
  priceList: z.array(productPriceSchema),
  sku: z.string().nullable().optional(),
});

export const categorySchema = z.looseObject({
  id: uuid,
  name: z.string(),
  index: nonNegativeInteger,
});

export const modifierOptionSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  price: z.number(),
});

export const modifierSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  options: z.array(modifierOptionSchema),
});

export const paymentMethodSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  enabled: z.boolean(),
});

export const taxSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  /** Hundredths of a percent: 1000 for a ten-percent tax. */
  percentage: z.number().int(),
});

// --- Health and the list envelope (spec 2.7, 2.8) ---

export const healthSchema = z.looseObject({
  status: z.string(),
  uptime: z.string(),
  docURL: z.url(),
  apiVersions: z.string(),
});

export const listMetaSchema = z.looseObject({
  totalCount: nonNegativeInteger,
  currentPageIndex: nonNegativeInteger,
  totalPage: nonNegativeInteger,
  pageSize: nonNegativeInteger,
});

export const listLinksSchema = z.looseObject({
  self: z.string().nullable().optional(),
  first: z.string().nullable().optional(),
  last: z.string().nullable().optional(),
  next: z.string().nullable().optional(),
  prev: z.string().nullable().optional(),
});

/** The envelope only: `data` elements are validated one by one, so one bad record does not
 * hide the others. */
export const listEnvelopeSchema = z.looseObject({
  data: z.array(z.unknown()),
  meta: listMetaSchema,
  links: listLinksSchema.optional(),
  nextPageToken: z.string().nullable().optional(),
});

export type Order = z.infer<typeof orderSchema>;
export type OrderItem = z.infer<typeof orderItemSchema>;
export type OrderPayment = z.infer<typeof orderPaymentSchema>;
export type Report = z.infer<typeof reportSchema>;
export type ReportHeaderInfo = z.infer<typeof reportHeaderInfoSchema>;
export type Location = z.infer<typeof locationSchema>;
export type Device = z.infer<typeof deviceSchema>;
export type Product = z.infer<typeof productSchema>;
export type Category = z.infer<typeof categorySchema>;
export type Modifier = z.infer<typeof modifierSchema>;
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;
export type Tax = z.infer<typeof taxSchema>;
export type Health = z.infer<typeof healthSchema>;
export type ListMeta = z.infer<typeof listMetaSchema>;
export type ListEnvelope = z.infer<typeof listEnvelopeSchema>;
