// Types of build-patient-pages.mjs, for the test that builds the assets into a directory of its own.
export declare const PATIENT_OUT_DIR: string;
export declare const PATIENT_MANIFEST: string;
export declare function buildPatientPages(outDir?: string): Promise<{ scripts: { flow: string; portal: string }; bytes: { flow: number; portal: number }; cssBytes: number }>;
