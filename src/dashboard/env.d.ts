// Module declarations for what the bundler accepts and TypeScript does not know: CSS imports.
declare module '*.css';
