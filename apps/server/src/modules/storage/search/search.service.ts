import type { ItemPolicy } from '../../../access/item.policy';
import type { Actor } from '../../../platform/identity/actor';
import type { SearchHit, SearchRepository } from './search.repository';

export type { SearchHit } from './search.repository';

/**
 * Case-insensitive substring search over every live item the actor can reach, not only the open
 * folder. Names that start with the text come first, straight from a btree index in name order;
 * other matches fill the rest from the trigram index without sorting every match, which is what
 * keeps a short query fast over 100k items.
 */
export class SearchService {
  constructor(private readonly deps: { repository: SearchRepository; policy: ItemPolicy }) {}

  async search(actor: Actor, text: string, limit: number): Promise<SearchHit[]> {
    const { repository } = this.deps;
    const roots = await this.deps.policy.accessRoots(actor);
    const hits: SearchHit[] = [];
    // Trigrams need 3 characters: shorter text matches name starts only, instead of reading every row.
    for (const match of text.length >= 3
      ? [repository.prefix(text), repository.contains(text)]
      : [repository.prefix(text)]) {
      if (hits.length >= limit) break;
      const remaining = limit - hits.length;
      const [folders, files] = await Promise.all([
        repository.folders(actor.userId, roots, match, remaining),
        repository.projects(actor.userId, roots, match, remaining),
      ]);
      hits.push(
        ...[...folders, ...files]
          .sort((a, b) => a.name.length - b.name.length || a.name.localeCompare(b.name))
          .slice(0, remaining),
      );
    }
    return hits;
  }
}
