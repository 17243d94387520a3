/** React access to the stores: one provider at the root, a hook per store with a selector. */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Stores } from './index';
import type { UiState } from './ui';
import type { DocumentState } from './document';
import type { CatalogState } from './catalog';
import type { PrintersState } from './printers';
import type { ConnectionState } from './connection';
import type { JobsState } from './jobs';
import type { BatchState } from './batch';
import type { DesignState } from './design';
import type { SiteHistoryState } from './site-history';
import type { ZplState } from './zpl';

const StoresContext = createContext<Stores | null>(null);

export function StoresProvider({ stores, children }: { stores: Stores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores outside StoresProvider');
  return stores;
}

export const useUi = <T,>(select: (s: UiState) => T): T => useStore(useStores().ui, select);
export const useDocument = <T,>(select: (s: DocumentState) => T): T => useStore(useStores().document, select);
export const useCatalog = <T,>(select: (s: CatalogState) => T): T => useStore(useStores().catalog, select);
export const usePrinters = <T,>(select: (s: PrintersState) => T): T => useStore(useStores().printers, select);
export const useConnection = <T,>(select: (s: ConnectionState) => T): T =>
  useStore(useStores().connection, select);
export const useJobs = <T,>(select: (s: JobsState) => T): T => useStore(useStores().jobs, select);
export const useBatch = <T,>(select: (s: BatchState) => T): T => useStore(useStores().batch, select);
export const useDesign = <T,>(select: (s: DesignState) => T): T => useStore(useStores().design, select);
export const useSiteHistory = <T,>(select: (s: SiteHistoryState) => T): T =>
  useStore(useStores().siteHistory, select);
export const useZpl = <T,>(select: (s: ZplState) => T): T => useStore(useStores().zpl, select);
