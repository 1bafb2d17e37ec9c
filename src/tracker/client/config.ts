// Reads the data-* attributes of the tracker's own <script> tag (every attribute is listed in docs/tracker.md).
export type Config = {
  site: string;
  /** Base of the ingestion API, without a trailing slash: events go to `${api}/api/v1/event`. */
  api: string;
  hash: boolean;
  allowLocalhost: boolean;
  allowAutomation: boolean;
  pageviews: boolean;
  outbound: boolean;
  downloads: boolean;
  forms: boolean;
  clicks: boolean;
  extensions: string[];
};

const EXTENSIONS =
  'pdf,doc,docx,xls,xlsx,ppt,pptx,odt,ods,odp,csv,txt,rtf,epub,key,zip,rar,7z,gz,tgz,tar,bz2,xz,dmg,exe,msi,pkg,deb,rpm,apk,iso,mp3,wav,flac,mp4,mov,avi,mkv,webm,wmv';

export function readConfig(script: HTMLScriptElement | null): Config {
  const attr = (name: string) => (script ? script.getAttribute('data-' + name) : null);
  // Opt-ins count when present (`data-hash`, `data-hash="true"`); features that default on are turned off only by "false".
  const optIn = (name: string) => attr(name) != null && attr(name) != 'false';
  const optOut = (name: string) => attr(name) != 'false';
  const src = script && script.src;
  return {
    site: attr('site') || '',
    api: (attr('api') || (src ? new URL(src, location.href).origin : location.origin)).replace(/\/+$/, ''),
    hash: optIn('hash'),
    allowLocalhost: optIn('allow-localhost'),
    allowAutomation: optIn('allow-automation'),
    pageviews: optOut('pageviews'),
    outbound: optOut('outbound'),
    downloads: optOut('downloads'),
    forms: optOut('forms'),
    clicks: optOut('clicks'),
    extensions: (attr('download-extensions') || EXTENSIONS).toLowerCase().split(/[\s,]+/),
  };
}
