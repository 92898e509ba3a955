import { medicationLine, PortalHome } from './portal-home';
import { LinkSignIn } from './link-sign-in';
import { OrderView } from './order-view';
import { PortalShell } from './portal-shell';
import type { PatientHome, PatientOrder, PortalInfo } from './portal-types';
import { PortalSignIn } from './sign-in';
import { SignOutButton } from './sign-out-button';

/** What one portal page shows: the sign-in (titled for where it leads), the patient's orders, one order, or the mail link's exchange. */
export type PortalView =
  | { kind: 'sign-in'; title: string }
  | { kind: 'home'; home: PatientHome }
  | { kind: 'order'; order: PatientOrder; phone: string | null }
  | { kind: 'link'; token: string };

export interface PortalPageProps {
  embedKey: string;
  info: PortalInfo;
  view: PortalView;
}

/**
 * A whole portal page (DESIGN decisions 39, 40) from what the server read for it: the one tree the custom
 * server renders and the browser hydrates (app/_patient-pages/), and Next.js renders in development.
 */
export function PortalPage({ embedKey, info, view }: PortalPageProps) {
  switch (view.kind) {
    case 'sign-in':
      return (
        <PortalShell info={info} title={view.title}>
          <PortalSignIn embedKey={embedKey} />
        </PortalShell>
      );
    case 'link':
      return (
        <PortalShell info={info} title="Signing you in">
          <LinkSignIn embedKey={embedKey} token={view.token} />
        </PortalShell>
      );
    case 'home':
      return (
        <PortalShell info={info} title={`Hello, ${view.home.profile.firstName}`} actions={<SignOutButton embedKey={embedKey} />}>
          <PortalHome embedKey={embedKey} {...view.home} />
        </PortalShell>
      );
    case 'order':
      return (
        <PortalShell info={info} title={medicationLine(view.order) || 'Your order'} actions={<SignOutButton embedKey={embedKey} />}>
          <OrderView embedKey={embedKey} order={view.order} phone={view.phone} />
        </PortalShell>
      );
  }
}

