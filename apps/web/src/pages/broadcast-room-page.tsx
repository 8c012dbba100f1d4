import { useParams } from 'react-router';
import { BroadcastRoom } from '../features/broadcast/components/broadcast-room';

/** /live/joined/{code}/broadcaster: the host of a streaming room. */
export function BroadcastRoomPage() {
  const { code = '' } = useParams();
  return <BroadcastRoom code={code.trim().toLowerCase()} />;
}
