// What counts as an answer to an item: beside the engine in server/lib (see ./engine.ts); re-exported here.
export * from '@/server/domain/intake/shared/answers';
