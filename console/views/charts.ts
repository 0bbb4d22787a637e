/**
 * Charts that fit their container: uPlot draws on a canvas of a fixed size, so the size follows
 * the container's width (a phone's screen, a rotated tablet) and never pushes the page sideways.
 */
import type uPlot from 'uplot';

/** Keeps `plot` as wide as `container` (and `height` tall) while the container is in the page. */
export function fitToWidth(plot: uPlot, container: HTMLElement, height: number): void {
  let width = 0;
  const fit = (): void => {
    const next = Math.max(200, Math.floor(container.clientWidth));
    if (next === width) return;
    width = next;
    plot.setSize({ width, height });
  };
  fit();
  const observer = new ResizeObserver(() => {
    if (!container.isConnected) {
      observer.disconnect();
      plot.destroy();
      return;
    }
    fit();
  });
  observer.observe(container);
}
