'use client';

import QRCode from 'qrcode';
import { useState } from 'react';
import { postJson } from './api-client';
import { Alert, Button, Field } from './field';

interface Enrollment {
  secret: string;
  otpauthUri: string;
  qr: string;
}

export function MfaEnrollment({ token, enabled }: { token: string; enabled: boolean }) {
  const [on, setOn] = useState(enabled);
  const [enrollment, setEnrollment] = useState<Enrollment>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  async function start() {
    const res = await postJson<{ secret: string; otpauthUri: string }>('/auth/mfa/enroll', {}, token);
    if (!res.ok) return setError(res.error?.message);
    setEnrollment({ ...res.data, qr: await QRCode.toDataURL(res.data.otpauthUri, { margin: 1, width: 200 }) });
  }

  async function confirm(e: React.FormEvent) {
    e.preventDefault();
    const res = await postJson('/auth/mfa/verify', { code: code.trim() }, token);
    if (res.ok) setOn(true);
    else setError(res.error?.message);
  }

  if (on) return <Alert tone="info">Two-factor authentication is on.</Alert>;
  if (!enrollment) {
    return (
      <div className="max-w-xs">
        <Button type="button" onClick={start}>
          Set up two-factor authentication
        </Button>
        {error && <Alert>{error}</Alert>}
      </div>
    );
  }
  return (
    <form onSubmit={confirm} className="max-w-sm space-y-4">
      <p className="text-sm text-slate-600">Scan the code with an authenticator app, or enter the secret, then type the 6-digit code it shows.</p>
      <img src={enrollment.qr} alt="QR code for your authenticator app" width={200} height={200} className="rounded border" />
      <p className="font-mono text-sm" data-testid="mfa-secret">
        {enrollment.secret}
      </p>
      <Field label="Code from the app" name="code" inputMode="numeric" value={code} onChange={(e) => setCode(e.target.value)} required />
      {error && <Alert>{error}</Alert>}
      <Button type="submit">Turn on</Button>
    </form>
  );
}
