/**
 * The employee's photo (large entity: the bytes are a blob, the entity names it) shown through a
 * read SAS, and uploaded the valet-key way: the API hands out a create-only write SAS for a new
 * blob, the browser PUTs the file straight to blob storage (one Put Blob, with progress), and the
 * API then adopts it after checking it is a raster image (docs/sas.md).
 */
import { api, ConsoleError, uploadToSas, type SasGrant } from '../api';
import { actionForm, field, h, input, seg } from '../dom';
import { state, type Employee } from '../session';
import { settled } from '../settle';

const initials = (e: Employee): string =>
  `${[...e.firstName][0] ?? ''}${[...e.lastName][0] ?? ''}`.toUpperCase();

/** The card's photo: the blob through its read SAS, or the employee's initials. */
export function photoFrame(employee: Employee): HTMLElement {
  const element = h('div', { class: 'photo', id: 'photo' });
  const placeholder = (text: string): HTMLElement =>
    h('div', { class: 'nophoto', role: 'img', 'aria-label': text }, initials(employee));
  const show = async (): Promise<void> => {
    try {
      const grant = await api<SasGrant>(
        state.session,
        'POST',
        `/sas/photos/${seg(employee.department)}/${seg(employee.employeeId)}`,
        { access: 'read' },
      );
      element.replaceChildren(
        h('img', {
          src: grant.url,
          alt: `Photo of ${employee.firstName} ${employee.lastName}`,
          width: '112',
          height: '112',
        }),
      );
    } catch (error) {
      element.replaceChildren(
        placeholder(
          error instanceof ConsoleError && error.status === 404
            ? 'No photo yet'
            : 'Photo unavailable',
        ),
      );
    }
  };
  element.append(placeholder(employee.photoUrl ? 'Loading the photo' : 'No photo yet'));
  if (employee.photoUrl) void show();
  return element;
}

const TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** The API's limit (src/photos: MAX_PHOTO_BYTES). */
const MAX_BYTES = 16 * 1024 * 1024;

/** The form that uploads a new photo through a write SAS, then has the API adopt it. */
export function photoUploadForm(employee: Employee): HTMLElement {
  const file = input('photo', {
    id: 'photo-file',
    type: 'file',
    accept: TYPES.join(','),
    required: true,
  });
  const bar = h('progress', { id: 'photo-progress', max: '1', value: '0', hidden: true });
  const path = `${seg(employee.department)}/${seg(employee.employeeId)}`;
  return actionForm(
    { id: 'upload-photo', 'aria-label': 'Upload a photo', class: 'stack' },
    [field('Photo (PNG, JPEG, GIF or WebP, up to 16 MiB)', file), bar],
    'Upload photo',
    async (say) => {
      const chosen = file.files?.[0];
      if (!chosen) throw new ConsoleError('Choose an image file first.');
      if (chosen.size > MAX_BYTES)
        throw new ConsoleError('That file is over 16 MiB: choose a smaller one.');
      if (chosen.type && !TYPES.includes(chosen.type))
        throw new ConsoleError('That is not a PNG, JPEG, GIF or WebP image.');
      const grant = await api<SasGrant>(state.session, 'POST', `/sas/photos/${path}`, {
        access: 'write',
      });
      bar.hidden = false;
      bar.value = 0;
      await uploadToSas(grant, chosen, (sent, total) => {
        bar.value = total > 0 ? sent / total : 0;
        say(`Uploading… ${Math.round((100 * sent) / Math.max(total, 1))}%`);
      });
      say('Checking the image…');
      await api(
        state.session,
        'PUT',
        `/departments/${seg(employee.department)}/employees/${seg(employee.employeeId)}/photo`,
        { blobName: grant.blobName },
      ).catch((error: unknown) => {
        // The API's message names the uploaded blob; the person chose a file.
        if (error instanceof ConsoleError && error.code === 'UnsupportedPhotoType')
          throw new ConsoleError(
            `${chosen.name} is not a PNG, JPEG, GIF or WebP image: choose a photo in one of those formats.`,
            error.status,
            error.code,
          );
        throw error;
      });
      settled('Photo updated.');
    },
  );
}
