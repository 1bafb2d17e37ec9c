// Module declarations for what the bundler accepts and TypeScript does not know: CSS imports.
declare module '*.css';
declare module 'world-atlas/countries-110m.json' {
  const topology: unknown;
  export default topology;
}
