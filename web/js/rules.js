// Rules page `/rules/<variant>`: the article for the current language (English fallback) with
// its diagrams drawn read-only by the board module, and links between the variants.
import { t, currentLang } from './i18n.js';
import { createBoard } from './board.js';
import { parse, START } from './position.js';

const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];

async function fetchArticle(variant, lang) {
  for (const l of lang === 'en' ? ['en'] : [lang, 'en']) {
    try {
      const res = await fetch(`/static/content/rules/${variant}.${l}.html`);
      if (res.ok) return { html: await res.text(), lang: l };
    } catch {
      /* try the next language */
    }
  }
  return null;
}

/** Draw every `<figure class="diagram" data-variant data-fen data-highlight>` in `root`. */
export function renderDiagrams(root, fallbackVariant) {
  for (const fig of root.querySelectorAll('figure.diagram')) {
    const variant = fig.dataset.variant || fallbackVariant;
    if (!VARIANTS.includes(variant)) continue;
    const host = document.createElement('div');
    host.className = 'board-host diagram-board';
    fig.prepend(host);
    try {
      const pos = parse(variant, fig.dataset.fen || START[variant]);
      const board = createBoard(host, { variant, interactive: false, stack: true });
      const highlight = (fig.dataset.highlight || '').split(/[\s,]+/).filter(Boolean);
      board.update({ pos, highlight, label: (sq, p) => (p ? `${sq}: ${p}` : sq) });
      const cap = fig.querySelector('figcaption');
      board.svg.setAttribute('aria-label', cap ? cap.textContent.trim() : t('variant.' + variant));
    } catch (e) {
      host.textContent = `${t('rules.badDiagram')} (${e.message})`;
    }
  }
}

export function rulesPage(main, variant) {
  if (!VARIANTS.includes(variant)) variant = 'xiangqi';
  let seq = 0;
  async function render() {
    const my = ++seq;
    const lang = currentLang();
    main.innerHTML = `
<section class="rules">
  <nav class="variant-tabs" aria-label="${t('rules.variants')}">
    ${VARIANTS.map((v) => `<a href="/rules/${v}"${v === variant ? ' aria-current="page"' : ''}>${t('variant.' + v)}</a>`).join('')}
  </nav>
  <article class="article" aria-busy="true"><p>${t('rules.loading')}</p></article>
  <p class="play-cta"><a class="button primary" href="/">${t('rules.play', { game: t('variant.' + variant) })}</a></p>
</section>`;
    document.title = `Jiang — ${t('rules.title', { game: t('variant.' + variant) })}`;
    const got = await fetchArticle(variant, lang);
    if (my !== seq) return;
    const article = main.querySelector('.article');
    article.removeAttribute('aria-busy');
    if (!got) {
      article.innerHTML = `<h1>${t('variant.' + variant)}</h1><p>${t('rules.missing')}</p>`;
      return;
    }
    article.innerHTML = got.html;
    if (got.lang !== lang) {
      article.setAttribute('lang', got.lang);
      article.insertAdjacentHTML('afterbegin', `<p class="note">${t('rules.fallback')}</p>`);
    }
    renderDiagrams(article, variant);
  }
  render();
  return { rerender: render };
}
