// esbuild bundles imported stylesheets into the hashed CSS file; the import itself has no value.
declare module "*.css";
