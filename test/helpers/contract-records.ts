/**
 * API records made by hand for the stores' contract (store-contract.test.ts): every field the
 * spec requires, and nothing a scenario does not name left to chance. Ids are fixed UUIDs, so
 * that an expectation can name them.
 */
import type {
  Location,
  Order,
  OrderItem,
  OrderPayment,
  Product,
  Report,
} from "../../src/api/schemas.js";

/** A fixed UUID, its last group `n`. */
export const uuid = (group: string, n: number) =>
  `${group}-0000-4000-8000-${String(n).padStart(12, "0")}`;

export const OPERATOR = { ann: uuid("00000001", 1), bob: uuid("00000001", 2) } as const;
const CATEGORY = uuid("00000002", 1);
const TAX = uuid("00000003", 1);
const CARD = uuid("00000004", 1);

export function location(id: string, name: string, country: string): Location {
  return {
    id,
    address: "1 rue Haute",
    siret: null,
    city: "Lyon",
    country,
    naf: null,
    name,
    phone: null,
    text: null,
    tva: null,
    url: null,
    zip: "69001",
    deviceList: [{ id: uuid("00000005", 1), name: "Till 1", model: "T1" }],
  };
}

export function product(n: number, name: string, price: number): Product {
  return {
    id: uuid("00000006", n),
    name,
    category: "Food",
    categoryId: CATEGORY,
    subCategories: [{ name: "All", id: uuid("00000007", 1) }],
    priceList: [{ priceTypeId: 1, priceTypeName: "Standard", unitPrice: price, taxRate: 1000 }],
    sku: null,
  };
}

export function item(
  of: Product,
  total: number,
  options: { canceled?: boolean; discount?: number } = {},
): OrderItem {
  return {
    description: of.name,
    quantity: 1,
    weight: null,
    unitPrice: total,
    total,
    category: "Food",
    subCategory: "All",
    isCanceled: options.canceled ?? false,
    cancelReason: options.canceled ? "taken back" : null,
    tier: "1",
    isTransferred: false,
    transferReason: null,
    discountsApplied: options.discount
      ? [
          {
            discountName: "Staff",
            discountValue: options.discount,
            discountCatalogId: uuid("00000008", 1),
          },
        ]
      : [],
    modifiers: [],
    tax: { taxName: "VAT", taxRate: 0.1, taxAmount: 0, taxCatalogId: TAX },
    itemCatalogId: of.id,
  };
}

export const payment = (amount: number): OrderPayment => ({
  paymentAmount: amount,
  paymentName: "Card",
  paymentCatalogId: CARD,
});

export interface OrderFields {
  id: string;
  locationId: string;
  reportId: string;
  number: string;
  operator: keyof typeof OPERATOR;
  /** When it was closed, with the offset the API sends. */
  closedAt: string;
  updatedAt?: string;
  items: OrderItem[];
  payments: OrderPayment[];
  discount?: number;
  canceled?: boolean;
  training?: boolean;
}

export function order(fields: OrderFields): Order {
  const total =
    Math.round(
      fields.items.filter((i) => !i.isCanceled).reduce((sum, i) => sum + i.total, 0) * 100,
    ) / 100;
  return {
    id: fields.id,
    createdAt: fields.closedAt,
    updatedAt: fields.updatedAt ?? fields.closedAt,
    customerId: null,
    deviceId: null,
    locationId: fields.locationId,
    reportId: fields.reportId,
    openedAt: fields.closedAt,
    closedAt: fields.closedAt,
    guests: 2,
    orderPlace: "Table 1",
    orderNumber: fields.number,
    operatorId: OPERATOR[fields.operator],
    operatorName: fields.operator === "ann" ? "Ann" : "Bob",
    total,
    totalTax: 0,
    totalDiscount: fields.discount ?? 0,
    items: fields.items,
    menus: [],
    payments: fields.payments,
    tips: null,
    isCanceled: fields.canceled ?? false,
    isTransferred: false,
    transferReason: null,
    cancelReason: fields.canceled ? "mistake" : null,
    isTraining: fields.training ?? false,
    source: "pos",
    externalOrderId: null,
    externalLocationId: null,
  };
}

export interface ReportFields {
  id: string;
  locationId: string;
  number: number;
  day: string;
  /** The offset of its instants, as the API sends them. */
  offset: string;
  totalSales: number;
  orders: string[];
}

export function report(fields: ReportFields): Report {
  const at = (time: string) => `${fields.day}T${time}${fields.offset}`;
  return {
    id: fields.id,
    createdAt: at("23:00:00"),
    updatedAt: at("23:00:00"),
    locationId: fields.locationId,
    startedAt: at("08:00:00"),
    finalizedAt: at("23:00:00"),
    deviceName: "Till 1",
    deviceIdentifier: null,
    reportNumber: fields.number,
    guestsNumber: 0,
    totalSales: fields.totalSales,
    reportHeaderInfo: {
      headerAddress: "",
      headerCity: "",
      headerCountry: "",
      headerName: "",
      headerPhone: "",
      headerNaf: "",
      headerSiret: "",
      headerText: "",
      headerTva: "",
      headerZip: "",
    },
    reportProducts: [],
    reportClerksShift: [],
    clerkName: null,
    clerkId: null,
    reportDiscounts: [],
    reportTaxes: [],
    reportPayments: [],
    reportEntries: [],
    initialCashBalance: null,
    finalCashBalance: null,
    orders: fields.orders,
  };
}
