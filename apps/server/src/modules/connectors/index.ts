// What other modules may use of the connectors module: its service's type.
export type { ConnectorsService } from './connectors.service';
