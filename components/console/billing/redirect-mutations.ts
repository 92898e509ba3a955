'use client';

import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';

/** Checkout and the portal answer a provider address; the browser goes there (the provider sends it back to /billing). */
const leave = ({ url }: { url: string }) => window.location.assign(url);

export function useCheckout() {
  const trpc = useTRPC();
  return useMutation(trpc.billing.checkout.mutationOptions({ onSuccess: leave }));
}

export function usePortal() {
  const trpc = useTRPC();
  return useMutation(trpc.billing.portal.mutationOptions({ onSuccess: leave }));
}
