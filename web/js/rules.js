// Rules page `/rules/<variant>`: the article for the current language (English fallback) with
// its diagrams drawn read-only by the board module, and links between the variants.
import { t, currentLang } from './i18n.js';
import { createBoard } from './board.js';
import { parse, START, familyOf } from './position.js';

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

/** Accessible name of a diagram point: "e0, red general". */
function diagramLabel(variant, sq, p) {
  if (!p) return t('aria.empty', { square: sq });
  const shogi = familyOf(variant) === 'shogi';
  const base = p.replace('+', '');
  const first = base === base.toUpperCase();
  const side = t('side.' + (shogi ? (first ? 'sente' : 'gote') : first ? 'red' : 'black'));
  const kind = shogi ? (p.startsWith('+') ? '+' : '') + base.toUpperCase() : p.toUpperCase();
  return t('aria.piece', { square: sq, side, piece: t(`piece.${shogi ? 'shogi' : 'xiangqi'}.${kind}`) });
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
      const inHand = Object.keys(pos.hands.first).length + Object.keys(pos.hands.second).length > 0;
      const board = createBoard(host, { variant, interactive: false, stack: true, noHands: !inHand });
      const highlight = (fig.dataset.highlight || '').split(/[\s,]+/).filter(Boolean);
      const arrows = (fig.dataset.arrows || '').split(/[\s,]+/).filter((a) => a.length >= 4).map((a) => [a.slice(0, 2), a.slice(2, 4)]);
      board.update({ pos, highlight, arrows, label: (sq, p) => diagramLabel(variant, sq, p) });
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
  <p class="play-cta"><a class="button primary" href="/">${t('rules.play.' + variant)}</a></p>
  <p class="editor-cta"><a href="/editor/${variant}">${t('editor.link')}</a></p>
</section>`;
    document.title = `Jiang — ${t('rules.title.' + variant)}`;
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
