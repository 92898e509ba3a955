import { notFound } from 'next/navigation';

// Any address no console page claims: answered inside the console (after its sign-in check) by its own 404.
export default function MissingConsolePage() {
  notFound();
}
