import { ViewTabs } from '@/components/console/ui/view-tabs';

/** The flows area's views: the flows themselves and the keys that embed them. */
export function FlowTabs({ active }: { active: 'flows' | 'keys' }) {
  return (
    <ViewTabs
      label="Flow views"
      tabs={[
        { href: '/flows', label: 'Flows', active: active === 'flows' },
        { href: '/embed-keys', label: 'Embed keys', active: active === 'keys' },
      ]}
    />
  );
}
