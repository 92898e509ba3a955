import { AuthCard } from '@/components/console/auth-card';
import { SignInForm } from '@/components/console/sign-in-form';

export default function LoginPage() {
  return (
    <AuthCard title="Sign in to the console">
      <SignInForm />
    </AuthCard>
  );
}
