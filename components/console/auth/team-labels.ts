export const ROLE_LABELS: Record<string, string> = { owner: 'Owner', admin: 'Admin', developer: 'Developer', provider: 'Provider', ops: 'Platform operations' };

export const STATUS_STYLES: Record<string, string> = {
  invited: 'bg-sky-100 text-sky-800',
  active: 'bg-emerald-100 text-emerald-800',
  deactivated: 'bg-slate-200 text-slate-700',
};

export const STATUS_LABELS: Record<string, string> = { invited: 'Invited', active: 'Active', deactivated: 'Deactivated' };
