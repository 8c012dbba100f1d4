/**
 * Whole-account search on Nextcloud and ownCloud, whose WebDAV offers SEARCH (RFC 5323 basicsearch)
 * at `…/remote.php/dav/` over a scope `/files/<user>/…`. Other WebDAV servers offer none, so a
 * linked account there filters the open folder instead.
 */

/** Where a linked folder's search goes, and how its hits' hrefs map back to the folder's paths. */
export interface WebdavSearchTarget {
  /** The DAV root the SEARCH is sent to (`…/remote.php/dav/`). */
  endpoint: URL;
  /** The scope's href, relative to the DAV root: the linked folder itself (`/files/alice/Mixes`). */
  scope: string;
  /** The path of the linked folder as the hits' hrefs spell it (`…/remote.php/dav/files/alice/Mixes/`). */
  hrefRoot: string;
}

const DAV_FILES = /^(.*\/remote\.php\/dav\/)(files\/[^/]+\/.*)$/;
const LEGACY = /^(.*\/remote\.php\/)webdav\/(.*)$/;

/**
 * The search target of a linked folder on Nextcloud or ownCloud, known by its address: the current
 * `…/remote.php/dav/files/<user>/…`, or the older `…/remote.php/webdav/…` (the signed-in user's
 * files, whose hits come back under `dav/files/<user id>/`: `userId` names that user, see
 * `legacyPrincipalUrl`). Null for any other WebDAV server.
 */
export function webdavSearchTarget(root: URL, userId: string): WebdavSearchTarget | null {
  const current = DAV_FILES.exec(root.pathname);
  if (current) {
    return {
      endpoint: new URL(current[1]!, root),
      scope: `/${current[2]!.replace(/\/$/, '')}`,
      hrefRoot: root.pathname,
    };
  }
  const legacy = LEGACY.exec(root.pathname);
  if (!legacy) return null;
  const files = `files/${encodeURIComponent(userId)}/${legacy[2]!}`;
  return {
    endpoint: new URL(`${legacy[1]!}dav/`, root),
    scope: `/${files.replace(/\/$/, '')}`,
    hrefRoot: `${legacy[1]!}dav/${files}`,
  };
}

/**
 * For the older `…/remote.php/webdav/` address: the DAV root to ask whose files these are. The user's
 * id there is not always the login name (an e-mail or LDAP login has an id of its own), so the
 * search asks the server for its current user principal (RFC 5397) instead of guessing.
 */
export function legacyPrincipalUrl(root: URL): URL | null {
  const legacy = LEGACY.exec(root.pathname);
  return legacy ? new URL(`${legacy[1]!}dav/`, root) : null;
}

/** The PROPFIND body asking for the current user principal. */
export const PRINCIPAL_BODY = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>',
);

/** The user id in a principal's href (`…/principals/users/<id>/`), decoded; null for any other. */
export function userIdOfPrincipal(href: string): string | null {
  const match = /\/principals\/users\/([^/]+)\/?$/.exec(href);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/**
 * The query as a basicsearch `like` literal matching names that contain it anywhere: `%` and `_` are
 * the literal's wildcards and `\` its escape (RFC 5323, DAV:like), so a name typed with them is
 * matched as typed.
 */
export function containsLiteral(query: string): string {
  return `%${query.replace(/[\\%_]/g, '\\$&')}%`;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The SEARCH body: names containing `query` anywhere below `scope`, at most `nresults` hits. */
export function searchBody(scope: string, query: string, nresults: number): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<d:searchrequest xmlns:d="DAV:"><d:basicsearch>' +
      '<d:select><d:prop><d:displayname/><d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getcontenttype/></d:prop></d:select>' +
      `<d:from><d:scope><d:href>${escapeXml(scope)}</d:href><d:depth>infinity</d:depth></d:scope></d:from>` +
      `<d:where><d:like><d:prop><d:displayname/></d:prop><d:literal>${escapeXml(containsLiteral(query))}</d:literal></d:like></d:where>` +
      '<d:orderby/>' +
      `<d:limit><d:nresults>${nresults}</d:nresults></d:limit>` +
      '</d:basicsearch></d:searchrequest>',
  );
}
