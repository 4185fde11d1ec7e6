/** Names and prices the generator draws from: a plausible European-style restaurant menu. */

export interface VenueTemplate {
  name: string;
  address: string;
  city: string;
  zip: string;
  country: string;
  phone: string;
  offsetMinutes: number;
}

export const VENUES: readonly VenueTemplate[] = [
  {
    name: "Le Petit Zinc",
    address: "12 rue de Buci",
    city: "Paris",
    zip: "75006",
    country: "FR",
    phone: "+33 1 42 00 00 01",
    offsetMinutes: 60,
  },
  {
    name: "Trattoria Aurora",
    address: "Via Savona 23",
    city: "Milano",
    zip: "20144",
    country: "IT",
    phone: "+39 02 0000 0002",
    offsetMinutes: 60,
  },
  {
    name: "Harbor Grill",
    address: "88 Atlantic Ave",
    city: "Boston",
    zip: "02110",
    country: "US",
    phone: "+1 617 000 0003",
    offsetMinutes: -300,
  },
  {
    name: "Café Lisboa",
    address: "Rua Augusta 140",
    city: "Lisboa",
    zip: "1100-053",
    country: "PT",
    phone: "+351 21 000 0004",
    offsetMinutes: 0,
  },
  {
    name: "Masala House",
    address: "14 Colaba Causeway",
    city: "Mumbai",
    zip: "400005",
    country: "IN",
    phone: "+91 22 0000 0005",
    offsetMinutes: 330,
  },
  {
    name: "Brasserie Nord",
    address: "Kurfürstendamm 21",
    city: "Berlin",
    zip: "10719",
    country: "DE",
    phone: "+49 30 0000 0006",
    offsetMinutes: 60,
  },
];

export interface ProductTemplate {
  name: string;
  /** Eat-in price in cents (or per kilogram when soldByWeight). */
  priceCents: number;
  soldByWeight?: boolean;
}

export interface CategoryTemplate {
  name: string;
  /** Tax rates in hundredths of a percent: [eat in, takeaway]. */
  taxRatesBp: readonly [number, number];
  subCategories: readonly string[];
  products: readonly ProductTemplate[];
  modifierGroups: readonly string[];
}

export const MENU: readonly CategoryTemplate[] = [
  {
    name: "Starters",
    taxRatesBp: [1000, 550],
    subCategories: ["Cold", "Hot"],
    modifierGroups: [],
    products: [
      { name: "Soupe à l'oignon", priceCents: 850 },
      { name: "Burrata & tomatoes", priceCents: 1150 },
      { name: "Escargots (6)", priceCents: 1200 },
      { name: "Caesar salad", priceCents: 990 },
    ],
  },
  {
    name: "Mains",
    taxRatesBp: [1000, 550],
    subCategories: ["Meat", "Fish", "Vegetarian"],
    modifierGroups: ["Cooking", "Side"],
    products: [
      { name: "Steak frites", priceCents: 2250 },
      { name: "Duck confit", priceCents: 2100 },
      { name: "Grilled sea bass", priceCents: 2400 },
      { name: "Risotto ai funghi", priceCents: 1750 },
      { name: "Cheeseburger", priceCents: 1650 },
      { name: "Fish of the day (per kg)", priceCents: 5200, soldByWeight: true },
    ],
  },
  {
    name: "Desserts",
    taxRatesBp: [1000, 550],
    subCategories: ["Pastry", "Ice cream"],
    modifierGroups: [],
    products: [
      { name: "Crème brûlée", priceCents: 750 },
      { name: "Tarte Tatin", priceCents: 800 },
      { name: "Two scoops", priceCents: 600 },
    ],
  },
  {
    name: "Soft drinks",
    taxRatesBp: [1000, 550],
    subCategories: ["Juices", "Sodas", "Water"],
    modifierGroups: [],
    products: [
      { name: "Fresh orange juice", priceCents: 550 },
      { name: "Cola 33cl", priceCents: 450 },
      { name: "Sparkling water 50cl", priceCents: 500 },
    ],
  },
  {
    name: "Hot drinks",
    taxRatesBp: [1000, 550],
    subCategories: ["Coffee", "Tea"],
    modifierGroups: ["Milk"],
    products: [
      { name: "Espresso", priceCents: 250 },
      { name: "Cappuccino", priceCents: 420 },
      { name: "Green tea", priceCents: 380 },
    ],
  },
  {
    name: "Wines & beers",
    taxRatesBp: [2000, 2000],
    subCategories: ["Red", "White", "Beer"],
    modifierGroups: [],
    products: [
      { name: "Côtes du Rhône (glass)", priceCents: 650 },
      { name: "Chablis (glass)", priceCents: 850 },
      { name: "Draft beer 25cl", priceCents: 480 },
      { name: "Champagne (bottle)", priceCents: 7500 },
    ],
  },
];

export const MODIFIER_GROUPS: Readonly<Record<string, readonly [string, number][]>> = {
  Cooking: [
    ["Rare", 0],
    ["Medium", 0],
    ["Well done", 0],
  ],
  Side: [
    ["Fries", 0],
    ["Green salad", 0],
    ["Truffle mash", 250],
  ],
  Milk: [
    ["Whole milk", 0],
    ["Oat milk", 40],
  ],
};

export const PAYMENT_METHODS: readonly { name: string; enabled: boolean; weight: number }[] = [
  { name: "Card", enabled: true, weight: 55 },
  { name: "Cash", enabled: true, weight: 20 },
  { name: "Contactless", enabled: true, weight: 18 },
  { name: "Meal voucher", enabled: true, weight: 7 },
  { name: "Cheque", enabled: false, weight: 0 },
];

export const DISCOUNTS: readonly { name: string; percent: number }[] = [
  { name: "Happy hour", percent: 20 },
  { name: "Staff meal", percent: 50 },
  { name: "Loyalty card", percent: 10 },
];

export const STAFF_NAMES: readonly string[] = [
  "Camille Martin",
  "Lucas Bernard",
  "Inès Dubois",
  "Marco Rossi",
  "Aisha Khan",
  "Sofia Almeida",
  "Jonas Weber",
  "Emma O'Brien",
];

export const DEVICE_MODELS: readonly string[] = ["iPad Pro 11", "iPad Air", "Sunmi T2", "PAX A920"];

export const CANCEL_REASONS: readonly string[] = [
  "Customer left",
  "Wrong order",
  "Duplicate ticket",
  "Kitchen closed",
];

/** Why a paid order was cancelled after the fact. */
export const LATE_CANCEL_REASONS: readonly string[] = [
  "Cancelled after payment",
  "Customer complaint",
  "Wrong order",
];

/** The reason of an item voided once its order was closed. */
export const LATE_VOID_REASON = "Voided after closing";

export const LOSS_REASONS: readonly string[] = ["Dropped", "Sent back", "Expired stock"];
