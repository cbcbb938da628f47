// Request-time data for the docs pages: `LoadDocs` is bound by name (Load + page ID).
export interface Chapter {
  /** Below /docs/: the view writes it `{ch.slug...}`, so its slashes stay segment separators. */
  slug: string;
  title: string;
}

export async function LoadDocs(ctx: unknown): Promise<{ chapters: Chapter[]; editor: { name: string } }> {
  void ctx;
  return {
    chapters: [
      { slug: 'getting-started', title: 'Getting started' },
      { slug: 'routing/rest-params', title: 'Rest params' },
    ],
    editor: { name: 'The docs team' },
  };
}
