export type { Warehouse, ResultPage, ResultsLocation } from "../../transforms/warehouse.js";
