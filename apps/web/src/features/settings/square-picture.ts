import { LIMITS } from '@mixroom/shared';

/** Larger than the server keeps (256 px), so its resize has detail to work with. */
const SIDE = 512;

/**
 * The middle square of a picture, drawn at 512×512 and encoded as JPEG, in base64: what the
 * profile-picture endpoint takes. The server still checks the bytes and makes its own 256×256 copy.
 */
export async function squarePicture(file: File): Promise<string> {
  if (file.size > LIMITS.avatarMaxBytes) throw new Error('The picture is too large (at most 5 MB).');
  const bitmap = await createImageBitmap(file).catch(() => {
    throw new Error('Please choose a PNG, JPEG or WebP picture.');
  });
  const side = Math.min(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = SIDE;
  canvas.height = SIDE;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot prepare the picture.');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, SIDE, SIDE);
  context.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, SIDE, SIDE);
  bitmap.close();
  const dataUrl = canvas.toDataURL('image/jpeg', 0.9);
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}
