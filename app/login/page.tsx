import { AuthCard } from '@/components/console/auth/auth-card';
import { SignInPanel } from '@/components/console/auth/sign-in-panel';

export const metadata = { title: 'Sign in · Fulfillment Rail' };

export default function LoginPage() {
  return (
    <AuthCard title="Sign in to the console" footer="For clinic staff and licensed providers of clinics on Fulfillment Rail.">
      <SignInPanel />
    </AuthCard>
  );
}
