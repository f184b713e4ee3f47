// The one helper every SVG drawing on the page uses: an element with its attributes.
export const NS = "http://www.w3.org/2000/svg";

export function add(parent, tag, attributes = {}, text = null) {
  const element = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  parent.appendChild(element);
  return element;
}
